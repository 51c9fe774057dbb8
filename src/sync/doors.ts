/**
 * The sync APIs' two doors on a server: Google Reader at /api/greader and Fever at /api/fever.
 * Mounted on the receiver's server (loopback, and the tunnel's or the public address) and on
 * browser mode's; nothing else of the app is reachable through them. While the feature is off
 * (the default) both answer 404, as if they were not there.
 */
import type { Mount } from '../realtime/receiver-server.ts';
import type { SyncAccount } from './account.ts';
import type { SyncBackend } from './backend.ts';
import { createFeverDoor } from './fever/fever.ts';
import { createGReaderDoor } from './greader/router.ts';
import { notFound } from './request.ts';

export const GREADER_PATH = '/api/greader';
export const FEVER_PATH = '/api/fever';
const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/** A contents POST of 10,000 long item ids is about 500 KB. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * The body cap of a request target under either door, else null: every server the doors are
 * mounted on (the receiver's, browser mode's) takes the same bodies from a phone.
 */
export function syncBodyCapFor(target: string): number | null {
  const path = target.replace(/[?#].*$/, '');
  return under(path, GREADER_PATH) || under(path, FEVER_PATH) ? MAX_BODY_BYTES : null;
}

export interface SyncDoors {
  /** The answer for a path under either door; null for any other path (not ours). */
  handle(req: Request, info: { remoteAddress: string }): Promise<Response> | null;
  /** The doors as receiver-server mounts. */
  mounts: Mount[];
}

export function createSyncDoors(deps: { backend: SyncBackend; account: SyncAccount }): SyncDoors {
  const greader = createGReaderDoor(deps);
  const fever = createFeverDoor(deps);
  const handle = (req: Request, info: { remoteAddress: string }): Promise<Response> | null => {
    const path = new URL(req.url).pathname;
    const isGReader = under(path, GREADER_PATH);
    if (!isGReader && !under(path, FEVER_PATH)) return null;
    if (!deps.account.enabled()) return Promise.resolve(notFound());
    return isGReader
      ? greader(req, path.slice(GREADER_PATH.length), info.remoteAddress)
      : fever(req, info.remoteAddress);
  };
  const mount = (prefix: string): Mount => ({
    prefix,
    strip: false,
    maxBodyBytes: MAX_BODY_BYTES,
    handle: (req, info) => handle(req, info) ?? notFound(),
  });
  return { handle, mounts: [mount(GREADER_PATH), mount(FEVER_PATH)] };
}

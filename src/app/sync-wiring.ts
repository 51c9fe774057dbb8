/**
 * Reading on other devices inside the app (issue 32; the doors are src/sync/): the account, the
 * doors built on the app's own commands, the event that tells open rivers what a phone changed,
 * and the API's four commands for Settings. The doors are mounted by the caller on the receiver's
 * server (realtime-wiring.ts: loopback and the tunnel) and on browser mode's server.
 */
import { SyncAccount } from '../sync/account.ts';
import type { SyncBackend, SyncCommands } from '../sync/backend.ts';
import { createSyncDoors, FEVER_PATH, GREADER_PATH, type SyncDoors } from '../sync/doors.ts';
import type { LoginLimits } from '../sync/login-guard.ts';
import { qrDataUrl } from '../sync/qr.ts';
import type { ApiResult, BackupMethod, SyncAddress, SyncInfo, TidingsApi } from './api.ts';
import { apiResult } from './api-result.ts';
import type { AppContext } from './context.ts';
import { importFromGReader } from './greader-import.ts';

type SyncApi = Pick<
  TidingsApi,
  'syncInfo' | 'setSyncEnabled' | 'newSyncPassword' | 'revokeSyncPassword' | 'importFromGReader'
>;

const COMMANDS = [
  'listFeeds',
  'listFolders',
  'markRead',
  'setStarred',
  'subscribe',
  'unsubscribe',
  'updateFeed',
  'createFolder',
  'renameFolder',
  'moveFolder',
  'deleteFolder',
  'exportOpml',
] as const satisfies readonly (keyof SyncCommands)[];

/** A feed icon is small; a bigger answer is not an icon. */
const MAX_ICON_BYTES = 128 * 1024;

export interface SyncWiring {
  doors: SyncDoors;
  api: SyncApi;
  /** Browser mode says where it serves the doors too (its local address); the returned function takes it back. */
  servedAt(base: string): () => void;
}

export function attachSync(
  ctx: AppContext,
  app: () => Omit<TidingsApi, BackupMethod>,
  opts: { loginLimits?: Partial<LoginLimits> } = {},
): SyncWiring {
  const account = new SyncAccount({ store: ctx.store.sync, clock: ctx.clock, limits: opts.loginLimits });
  // The app object is built after its parts: the commands are looked up when called.
  const commands = Object.fromEntries(
    COMMANDS.map((name) => [
      name,
      (...args: unknown[]) => (app()[name] as (...a: unknown[]) => unknown)(...args),
    ]),
  ) as unknown as SyncCommands;
  const backend: SyncBackend = {
    store: ctx.store.sync,
    app: commands,
    clock: ctx.clock,
    feedIdByUrl: (url) => ctx.store.getFeedByUrl(url)?.id ?? null,
    itemsChanged(itemIds) {
      // The renderer re-reads changed items in place ('river.changed' with changedItems), by feed.
      for (const [feedId, changedItems] of ctx.store.itemsByFeed(itemIds))
        ctx.events.emit('river.changed', { feedId, newItems: 0, changedItems });
    },
    async fetchIcon(url) {
      const res = await ctx.http.request({
        method: 'GET',
        url,
        headers: { accept: 'image/*' },
        timeoutMs: 10_000,
        maxBodyBytes: MAX_ICON_BYTES,
        maxRedirects: 5,
      });
      if (!res.ok || res.value.status !== 200 || res.value.body.length === 0) return null;
      const type = (res.value.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      return type.startsWith('image/') ? { type, body: res.value.body } : null;
    },
  };
  const doors = createSyncDoors({ backend, account });
  const localBases = new Set<string>();

  async function address(path: string): Promise<SyncAddress> {
    const receiver = ctx.realtime?.info();
    const local = [...(receiver?.receiverUrl ? [receiver.receiverUrl] : []), ...localBases].map(
      (base) => `${base.replace(/\/+$/, '')}${path}`,
    );
    const publicBase = receiver?.publicUrl ?? null;
    const pub = publicBase ? `${publicBase.replace(/\/+$/, '')}${path}` : null;
    return { local, public: pub, qr: pub ? await qrDataUrl(pub) : null };
  }

  async function info(): Promise<SyncInfo> {
    const s = account.state();
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    return {
      enabled: s.enabled,
      userName: s.userName,
      hasPassword: s.hasPassword,
      passwordSetAt: iso(s.passwordSetAt),
      logins: s.logins,
      lastSyncAt: iso(s.lastUsedAt),
      greader: await address(GREADER_PATH),
      fever: await address(FEVER_PATH),
    };
  }

  const api: SyncApi = {
    syncInfo: info,
    setSyncEnabled: async (enabled) => {
      account.setEnabled(enabled === true);
      return info();
    },
    newSyncPassword: async (userName): Promise<ApiResult<{ password: string; info: SyncInfo }>> => {
      const made = await account.newPassword(userName);
      if (!made.ok) return apiResult(made);
      return { ok: true, value: { password: made.value, info: await info() } };
    },
    revokeSyncPassword: async () => {
      account.revoke();
      return info();
    },
    importFromGReader: async (input) => {
      return apiResult(await importFromGReader(ctx, app(), input));
    },
  };

  return {
    doors,
    api,
    servedAt(base) {
      localBases.add(base);
      return () => {
        localBases.delete(base);
      };
    },
  };
}

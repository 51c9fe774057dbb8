/**
 * The Google Reader API door, served under <base>/api/greader as FreshRSS and Miniflux serve it:
 * `/accounts/ClientLogin` trades the user name (Email) and the app password (Passwd) for a token
 * (answered as SID=/LSID=/Auth= lines), and every `/reader/api/0/...` call carries it as
 * `Authorization: GoogleLogin auth=<token>`. Write calls are POSTs and may also carry it as `T`
 * (`/reader/api/0/token` hands it out); a T that is neither a live token nor the placeholder some
 * clients send with a good header ('' or 'x', as FreshRSS allows) is refused. A missing or dead
 * token gets the 401 with Google-Bad-Token that clients answer by logging in again.
 */
import type { SyncAccount } from '../account.ts';
import type { SyncBackend } from '../backend.ts';
import { json, notFound, type Params, peerOf, readParams, text, tooMany } from '../request.ts';
import * as reading from './reading.ts';
import { type GReaderContext, isRefusal, type Refusal } from './reading.ts';
import { READING_LIST } from './streams.ts';
import * as writing from './writing.ts';

export interface GReaderDoorDeps {
  backend: SyncBackend;
  account: SyncAccount;
}

const API = '/reader/api/0/';
const AUTH_HEADER = /^GoogleLogin\s+auth=(\S+)\s*$/i;

function unauthorized(): Response {
  return text('Unauthorized', 401, { 'google-bad-token': 'true', 'x-reader-google-bad-token': 'true' });
}

const badRequest = (r: Refusal) => text(r.refused, 400);

/** (request, path below the door's prefix) -> the answer. */
export function createGReaderDoor(deps: GReaderDoorDeps) {
  const { backend, account } = deps;

  async function clientLogin(req: Request, remoteAddress: string): Promise<Response> {
    const params = await readParams(req);
    const email = params.get('Email') ?? '';
    const passwd = params.get('Passwd') ?? '';
    if (!email || !passwd) return text('Error=BadAuthentication\n', 401);
    const outcome = await account.login(email, passwd, peerOf(req, remoteAddress));
    if (!outcome.ok) {
      return outcome.reason === 'limited'
        ? tooMany(outcome.retryAfterSec)
        : text('Error=BadAuthentication\n', 401);
    }
    const t = outcome.token;
    if (params.get('output') === 'json') return json({ SID: t, LSID: t, Auth: t });
    return text(`SID=${t}\nLSID=${t}\nAuth=${t}\n`);
  }

  /** The session's token when the call is authenticated, else null. */
  function authenticate(req: Request, params: Params): string | null {
    const header = AUTH_HEADER.exec(req.headers.get('authorization') ?? '')?.[1] ?? null;
    const t = req.method === 'POST' ? (params.get('T')?.trim() ?? null) : null;
    if (header !== null && account.checkToken(header)) {
      if (t === null || t === '' || t === 'x' || t === header || account.checkToken(t)) return header;
      return null;
    }
    if (header === null && t && account.checkToken(t)) return t;
    return null;
  }

  async function api(req: Request, endpoint: string): Promise<Response> {
    const params = await readParams(req);
    const token = authenticate(req, params);
    if (token === null) return unauthorized();
    const g: GReaderContext = { backend, userName: account.userName() ?? '' };
    const post = req.method === 'POST';
    const answer = (r: Response | Refusal) => (isRefusal(r) ? badRequest(r) : r);
    const writeOnly = async (run: () => Promise<Response | Refusal>) =>
      post ? answer(await run()) : text('Use POST for this call.', 405, { allow: 'POST' });

    if (endpoint.startsWith('stream/contents')) {
      const rest = endpoint.slice('stream/contents'.length).replace(/^\//, '');
      const stream = rest ? safeDecode(rest) : (params.get('s') ?? READING_LIST);
      return answer(await reading.streamContents(g, stream, params, req.url));
    }
    switch (endpoint) {
      case 'token':
        return text(token);
      case 'user-info':
        return reading.userInfo(g);
      case 'subscription/list':
        return reading.subscriptionList(g);
      case 'subscription/export':
        return new Response(await backend.app.exportOpml(), {
          headers: {
            'content-type': 'text/x-opml; charset=utf-8',
            'content-disposition': 'attachment; filename="tidings-subscriptions.opml"',
            'cache-control': 'no-store',
          },
        });
      case 'tag/list':
        return reading.tagList(g);
      case 'unread-count':
        return reading.unreadCount(g);
      case 'stream/items/ids':
        return answer(await reading.streamItemIds(g, params));
      case 'stream/items/contents':
        return answer(await reading.streamItemContents(g, params, req.url));
      case 'edit-tag':
        return writeOnly(() => writing.editTag(g, params));
      case 'mark-all-as-read':
        return writeOnly(() => writing.markAllAsRead(g, params));
      case 'subscription/edit':
        return writeOnly(() => writing.subscriptionEdit(g, params));
      case 'subscription/quickadd':
        return writeOnly(() => writing.quickAdd(g, params));
      case 'rename-tag':
        return writeOnly(() => writing.renameTag(g, params));
      case 'disable-tag':
        return writeOnly(() => writing.disableTag(g, params));
      default:
        return notFound();
    }
  }

  return async (req: Request, path: string, remoteAddress: string): Promise<Response> => {
    if (req.method !== 'GET' && req.method !== 'POST')
      return text('Use GET or POST.', 405, { allow: 'GET, POST' });
    if (path === '/accounts/ClientLogin') return clientLogin(req, remoteAddress);
    if (path.startsWith(API)) return api(req, path.slice(API.length).replace(/\/+$/, ''));
    return notFound();
  };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

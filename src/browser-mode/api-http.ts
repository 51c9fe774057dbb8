/**
 * The TidingsApi over HTTP for browser mode: `POST /api/<method>` with `{"args":[...]}` and
 * `Authorization: Bearer <token>`, answering `{"result":...}` or `{"error":{code,message}}`.
 * A Request -> Response function (STYLE: servers are handlers; sockets are adapters).
 *
 * Every body is bounded before anything runs on it (issue 31: no single request may freeze the
 * app): in size by the socket layer, per command (`apiBodyCapFor`: the documents a few commands
 * take, a small cap for the rest), and in the work JSON.parse may do (`jsonTooBusy`: a body of
 * millions of tiny values is refused unread). The arguments' sizes are then checked by their
 * shapes (src/app/shape.ts).
 */
import { timingSafeEqual } from 'node:crypto';
import { API_METHODS, type ApiMethod, type TidingsApi } from '../app/api.ts';
import { argsProblem, fromJsonArgs } from '../app/api-args.ts';
import { describeError } from '../common/errors.ts';

const METHODS = new Set<string>(API_METHODS);

/** The commands that carry a document (an OPML file, a post with its file, a piece of a backup): their cap. */
const DOCUMENT_COMMANDS = new Set<string>(['importOpml', 'post', 'editPost', 'saveDraft', 'writeUpload']);
/** A document command's body: a 10 MiB file, written as JSON text. */
export const API_DOCUMENT_BODY_BYTES = 11 * 1024 * 1024;
/** Any other command's body: its arguments are small (64 K characters of text at most). */
export const API_BODY_BYTES = 1024 * 1024;
/** JSON values (brackets, commas, colons outside strings) a body may hold. */
export const API_MAX_JSON_TOKENS = 100_000;

/** The body cap for a request target (the socket layer refuses more, unread). */
export function apiBodyCapFor(path: string): number {
  const method = path.replace(/\?.*$/, '').slice('/api/'.length);
  return DOCUMENT_COMMANDS.has(method) ? API_DOCUMENT_BODY_BYTES : API_BODY_BYTES;
}

/**
 * True when the JSON body holds more than API_MAX_JSON_TOKENS structural characters outside its
 * strings: one linear look at the bytes, so JSON.parse is never handed millions of values
 * (10 MB of `[0,0,0,...` held the event loop for a good part of a second).
 */
export function jsonTooBusy(body: Uint8Array): boolean {
  let tokens = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const b = body[i]!;
    if (inString) {
      if (b === 0x5c)
        i++; // backslash: the next byte is escaped
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x2c || b === 0x3a || b === 0x5b || b === 0x7b) {
      if (++tokens > API_MAX_JSON_TOKENS) return true;
    }
  }
  return false;
}

export function tokenMatches(given: string | null, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function bearerToken(req: Request): string | null {
  const header = req.headers.get('authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1]! : null;
}

const json = (status: number, value: unknown) =>
  new Response(JSON.stringify(value), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });

export const apiError = (status: number, code: string, message: string) =>
  json(status, { error: { code, message } });

export async function handleApiCall(
  api: TidingsApi,
  token: string,
  req: Request,
  method: string,
): Promise<Response> {
  if (!tokenMatches(bearerToken(req), token)) {
    return apiError(401, 'api.unauthorized', 'This API needs the access token printed by `tidings serve`.');
  }
  if (req.method !== 'POST') return apiError(405, 'api.method', 'API calls are POST requests.');
  if (!METHODS.has(method)) return apiError(404, 'api.unknown', `There is no API command named "${method}".`);
  const bytes = new Uint8Array(await req.arrayBuffer());
  if (jsonTooBusy(bytes)) {
    return apiError(413, 'api.tooBig', `A call's arguments hold at most ${API_MAX_JSON_TOKENS} values.`);
  }
  let args: unknown[];
  try {
    const body = JSON.parse(new TextDecoder().decode(bytes)) as { args?: unknown } | null;
    const given = body && typeof body === 'object' ? body.args : undefined;
    if (given !== undefined && !Array.isArray(given)) throw new Error('args is not a list');
    args = fromJsonArgs(method as ApiMethod, given ?? []);
  } catch {
    return apiError(400, 'api.badJson', 'The request body must be JSON like {"args": [...]}.');
  }
  // The shape of what came in, checked before any code reads it (src/app/api-args.ts).
  const problem = argsProblem(method as ApiMethod, args);
  if (problem) return apiError(400, 'api.badArgs', problem);
  try {
    const fn = api[method as ApiMethod] as (...a: unknown[]) => Promise<unknown>;
    const result = await fn.apply(api, args);
    return json(200, { result: result ?? null });
  } catch (e) {
    return apiError(500, 'api.failed', describeError(e));
  }
}

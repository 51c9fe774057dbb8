/**
 * The TidingsApi over HTTP for browser mode: `POST /api/<method>` with `{"args":[...]}` and
 * `Authorization: Bearer <token>`, answering `{"result":...}` or `{"error":{code,message}}`.
 * A Request -> Response function (STYLE: servers are handlers; sockets are adapters).
 */
import { timingSafeEqual } from 'node:crypto';
import { API_METHODS, type ApiMethod, type TidingsApi } from '../app/api.ts';
import { argsProblem, fromJsonArgs } from '../app/api-args.ts';
import { describeError } from '../common/errors.ts';

const METHODS = new Set<string>(API_METHODS);

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
  let args: unknown[];
  try {
    const body = (await req.json()) as { args?: unknown } | null;
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

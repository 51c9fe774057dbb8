/**
 * The generic proxy (STYLE §2): every method named in API_METHODS becomes `call(method, args)`.
 * Adding a command to the contract never means touching a transport.
 */
import { API_METHODS, type ApiMethod, type TidingsApi } from '../../../src/app/api';

export type CallFn = (method: ApiMethod, args: unknown[]) => Promise<unknown>;

export function createApiProxy(call: CallFn): TidingsApi {
  const api: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of API_METHODS) {
    api[method] = (...args: unknown[]) => call(method, trimTrailingUndefined(args));
  }
  return api as unknown as TidingsApi;
}

/** `refresh()` and `refresh(undefined)` should travel the same way: JSON turns undefined into null. */
function trimTrailingUndefined(args: unknown[]): unknown[] {
  let end = args.length;
  while (end > 0 && args[end - 1] === undefined) end--;
  return end === args.length ? args : args.slice(0, end);
}

/**
 * A core Result as the API carries it: only code and message cross (args and cause stay in the
 * core), and an error about one feed names it (already_subscribed: the UI selects that feed).
 */
import type { Result } from '../common/errors.ts';
import type { ApiResult } from './api.ts';

export function apiResult<T>(r: Result<T>): ApiResult<T> {
  if (r.ok) return r;
  const { code, message, args } = r.error;
  return typeof args?.feedId === 'number'
    ? { ok: false, error: { code, message, feedId: args.feedId } }
    : { ok: false, error: { code, message } };
}

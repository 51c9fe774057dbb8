/** A core Result as the API carries it: only code and message cross (args and cause stay in the core). */
import type { Result } from '../common/errors.ts';
import type { ApiResult } from './api.ts';

export function apiResult<T>(r: Result<T>): ApiResult<T> {
  return r.ok ? r : { ok: false, error: { code: r.error.code, message: r.error.message } };
}

import { errorMessage, isUnauthorized } from '../api/api-error';
import type { AppState } from './types';

/**
 * A command failed unexpectedly: tell the user in a toast. A missing token is not toasted, the
 * whole page switches to the "needs the link" screen instead (the transport set that state).
 */
export function reportError(get: () => AppState, err: unknown, context?: string): void {
  if (isUnauthorized(err)) {
    get().setConnection('unauthorized');
    return;
  }
  const message = errorMessage(err);
  get().pushNotice({ level: 'error', message: context ? `${context}: ${message}` : message });
}

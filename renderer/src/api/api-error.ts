/**
 * The one error type the transports reject with: a stable code the UI can branch on and a sentence
 * it can show. Mirrors the core's TidingsError shape ({code, message}) without importing it.
 */
export class ApiError extends Error {
  readonly code: string;
  /** HTTP status when the error came over HTTP (0 for network failures and IPC). */
  readonly status: number;

  constructor(code: string, message: string, status = 0) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
  }
}

/** A readable sentence for anything thrown by a command, for toasts. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'string') return err;
  return 'Something went wrong.';
}

export function isUnauthorized(err: unknown): boolean {
  return err instanceof ApiError && err.code === 'unauthorized';
}

/**
 * Errors as values people can read (Miniflux's two faces): a stable `code` the UI and tests
 * match on, `args` that fill the sentence, a readable `message`, and the original `cause`
 * kept for logs only. Nothing here may carry a credential: callers mask URLs first.
 */
export interface TidingsError {
  readonly code: string;
  readonly message: string;
  readonly args?: Readonly<Record<string, string | number>>;
  readonly cause?: unknown;
}

export function tidingsError(
  code: string,
  message: string,
  args?: Record<string, string | number>,
  cause?: unknown,
): TidingsError {
  return { code, message, ...(args ? { args } : {}), ...(cause !== undefined ? { cause } : {}) };
}

/** A result that is either a value or a readable error: for operations fed by user input. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: TidingsError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(error: TidingsError): Result<T> => ({ ok: false, error });

/** An Error that carries a TidingsError across a `throw` (CLI, API transports). */
export class TidingsFailure extends Error {
  readonly error: TidingsError;
  constructor(error: TidingsError) {
    super(error.message);
    this.name = 'TidingsFailure';
    this.error = error;
  }
}

/** The readable sentence for anything thrown, without stack traces or secrets. */
export function describeError(e: unknown): string {
  if (e instanceof TidingsFailure) return e.error.message;
  if (e instanceof Error) return e.message;
  return String(e);
}

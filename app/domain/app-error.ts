// The one way a service or a rule says "this can't be done": a status-neutral code, a message
// fit to show the user, and optionally the form field it is about. Routes turn it into an HTTP
// answer (app/utils/app-error.server.ts); nothing below the routes knows about HTTP.

export type AppErrorCode =
  /** the input breaks a rule (bad value, missing field, wrong state of the input itself) */
  | "invalid"
  /** the caller must sign in */
  | "unauthenticated"
  /** signed in, but this is not theirs to do */
  | "forbidden"
  /** nothing there, or not the caller's to see (never say which) */
  | "not_found"
  /** the thing changed under the caller: a lost race, a stale edit, a duplicate */
  | "conflict"
  /** the input is larger than allowed */
  | "too_large"
  /** the input's type or format is not one we take */
  | "unsupported"
  /** the caller did this too often; retryAfterSeconds says when to try again */
  | "rate_limited"
  /** the machine is busy right now; retryAfterSeconds says when to try again */
  | "busy"
  /** an outside service is unavailable */
  | "unavailable";

export interface AppErrorOptions {
  /** the form field the message is about */
  field?: string;
  /** for rate_limited and busy */
  retryAfterSeconds?: number;
  cause?: unknown;
}

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly field: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: AppErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.field = options.field;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

import { AppError } from "./app-error";

/**
 * A sign-in or sign-up that did not go through: an AppError (its code gives the status through the one
 * mapper, app/utils/app-error.server.ts) with the title the page shows and the messages per field.
 */
export class AuthFailure extends AppError {
  constructor(
    code: "invalid" | "unauthenticated" | "conflict" | "rate_limited",
    readonly title: string,
    message: string,
    readonly fieldErrors: Record<string, string[]> = {},
    retryAfterSeconds?: number,
  ) {
    super(code, message, { retryAfterSeconds });
  }
}

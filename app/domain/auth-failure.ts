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

/** A refused sign-in or sign-up as conform's form errors: the toast's title first, then what went wrong. */
export function authFormErrors(failure: AuthFailure): string[] {
  return [failure.title, failure.message];
}

/** The toast /auth shows for a refused post, read back from its form errors (authFormErrors). */
export function authToastOf(formErrors: string[] | null | undefined): { title: string; description: string } | null {
  const [title, ...why] = formErrors ?? [];
  return title ? { title, description: why.join(" ") } : null;
}

// Routes own every HTTP answer: this is the one mapper from a service's AppError to an API
// {message} with its status, a conform reply, or a toast.
import type { SubmissionResult } from "@conform-to/react";
import { data } from "@remix-run/node";
import { AppError, isAppError, type AppErrorCode } from "~/domain/app-error";
import type { ToastInput } from "./toast.server";

const STATUS: Record<AppErrorCode, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported: 415,
  rate_limited: 429,
  busy: 503,
  unavailable: 503,
};

export function httpStatusOf(error: AppError): number {
  return STATUS[error.code];
}

/** A page's form that refuses its input re-renders with 400; a busy machine, a lost race or a limit keep their status. */
export function formStatusOf(error: AppError): number {
  return error.code === "invalid" || error.code === "too_large" || error.code === "unsupported" ? 400 : httpStatusOf(error);
}

/** Retry-After for an AppError that says when to try again. */
export function retryHeaders(error: AppError): HeadersInit | undefined {
  return error.retryAfterSeconds === undefined
    ? undefined
    : { "Retry-After": String(Math.max(1, Math.ceil(error.retryAfterSeconds))) };
}

/** The JSON API answer for an AppError: {message} with its status (and Retry-After when known). */
export function apiErrorResponse(error: AppError): Response {
  return Response.json({ message: error.message }, { status: httpStatusOf(error), headers: retryHeaders(error) });
}

/**
 * Runs an API handler; an AppError it throws becomes the JSON answer, anything else goes on up
 * (a thrown Response stays a Response, a bug stays a 500).
 */
export async function withApiErrors(handler: () => Promise<Response>): Promise<Response> {
  try {
    return await handler();
  } catch (error) {
    if (isAppError(error)) return apiErrorResponse(error);
    throw error;
  }
}

/** A page action's answer for an AppError on a conform form: the message on its field (or the form), with formStatusOf. */
export function replyWithError(
  submission: {
    reply: (options?: {
      formErrors?: string[];
      fieldErrors?: Record<string, string[]>;
      hideFields?: string[];
    }) => SubmissionResult;
  },
  error: AppError,
  /** fields never sent back as typed (a card's number and code) */
  hideFields?: string[],
) {
  const result = error.field
    ? submission.reply({ fieldErrors: { [error.field]: [error.message] }, hideFields })
    : submission.reply({ formErrors: [error.message], hideFields });
  return data({ result }, { status: formStatusOf(error), headers: retryHeaders(error) });
}

/** The toast for an AppError after a plain form post. */
export function toastOf(error: AppError, title = "Error"): ToastInput {
  return { title, description: error.message, variant: "destructive" };
}

export { AppError, isAppError };

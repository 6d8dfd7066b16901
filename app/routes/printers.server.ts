// What the printer pages and the printer API share at the HTTP edge: the owner check for pages,
// reading a printer form with a photo, listing a new printer from a form, and the API's answer
// for a body that failed validation.
import type { SubmissionResult } from "@conform-to/react";
import {
  FormDataParseError,
  MaxFilesExceededError,
  MaxFileSizeExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  parseFormData,
} from "@remix-run/form-data-parser";
import type { z } from "zod";
import type { Printer, User } from "../../db/schema";
import { isAppError } from "~/domain/app-error";
import { FORM_UNREADABLE, ONE_PHOTO_ONLY, PHOTO_TOO_LARGE } from "~/domain/printer-form";
import { MAX_PRINTER_IMAGE_BYTES } from "~/services/printers/images.server";
import { createPrinter, findOwnedPrinter, type NewPrinter } from "~/services/printers/owner.server";
import { replyWithError } from "~/utils/app-error.server";
import { requireUser } from "~/utils/session.server";
import { redirectWithToast } from "~/utils/toast.server";
import { invariantResponse } from "~/utils/misc";

/** Pages: the signed-in owner and their printer; anyone else gets a 404, since saying "exists" helps no one. */
export async function requirePrinterOwner(request: Request, printerId: number): Promise<{ user: User; printer: Printer }> {
  const user = await requireUser(request);
  let printer: Printer | null = null;
  try {
    printer = await findOwnedPrinter(user, printerId);
  } catch (error) {
    if (!isAppError(error) || error.code !== "forbidden") throw error;
  }
  invariantResponse(printer, "Printer not found", { status: 404 });
  return { user, printer };
}

export type PrinterFormFailure = { status: 400 | 413; result: SubmissionResult<string[]> };

/**
 * The answer for a printer form that parseFormData refused: 413 for a photo or form over the size
 * limits, 400 for too many files or a broken or oversized multipart body. The result carries no
 * initialValue, so with JavaScript the form keeps what was typed. Any other error is not a parse
 * failure: null, and the caller rethrows it.
 */
export function printerFormParseFailure(error: unknown): PrinterFormFailure | null {
  const reply = (status: 400 | 413, field: string, message: string) => ({
    status,
    result: { status: "error", error: { [field]: [message] } } satisfies SubmissionResult<string[]>,
  });
  if (error instanceof MaxFileSizeExceededError || error instanceof MaxTotalSizeExceededError)
    return reply(413, "image", PHOTO_TOO_LARGE);
  if (error instanceof MaxFilesExceededError) return reply(400, "image", ONE_PHOTO_ONLY);
  // the rest: MaxPartsExceededError, MaxHeaderSizeExceededError, a malformed body
  if (error instanceof MultipartParseError || error instanceof FormDataParseError) return reply(400, "", FORM_UNREADABLE);
  return null;
}

/**
 * A printer form with at most one photo, kept in memory (5 MB at most) until the form is valid, so
 * nothing is stored for a rejected form; or the failure to answer with.
 */
export async function readPrinterForm(request: Request): Promise<{ formData: FormData } | { failure: PrinterFormFailure }> {
  try {
    return { formData: await parseFormData(request, { maxFileSize: MAX_PRINTER_IMAGE_BYTES, maxFiles: 1 }, (file) => file) };
  } catch (error) {
    const failure = printerFormParseFailure(error);
    if (!failure) throw error;
    return { failure };
  }
}

/**
 * The add-printer forms' answer (full page and dashboard quick form): the owner's dashboard with a
 * toast, or the refusal (a place not found, a photo refused, a limit) on the form.
 */
export async function listNewPrinter(user: User, submission: Parameters<typeof replyWithError>[0], build: () => NewPrinter) {
  let printer: NewPrinter;
  try {
    printer = build();
    await createPrinter(user, printer);
  } catch (error) {
    if (isAppError(error)) return replyWithError(submission, error);
    throw error;
  }
  return redirectWithToast("/printer-dashboard", {
    title: "Printer added successfully!",
    description: `${printer.name} is now listed on the marketplace.`,
  });
}

/** The API's 400 for a body that failed validation: the first message, and every field's messages. */
export function apiValidationError(error: z.ZodError): Response {
  const { fieldErrors, formErrors } = error.flatten();
  const first = formErrors[0] ?? Object.values(fieldErrors).flat()[0] ?? "Check the printer details";
  return Response.json({ message: first, errors: fieldErrors }, { status: 400 });
}

/** The API's 400 for a location the gazetteer cannot place, with the "City, ST" names it may have meant. */
export function apiLocationNotFound(message: string, choices: string[] = []): Response {
  return Response.json({ message, choices, errors: { location: [message] } }, { status: 400 });
}

/** Runs a printer API write; a printer the gazetteer cannot place answers as apiLocationNotFound. */
export async function withPlacementRefusal(handler: () => Promise<Response>): Promise<Response> {
  try {
    return await handler();
  } catch (error) {
    if (isAppError(error) && error.field === "location") return apiLocationNotFound(error.message);
    throw error;
  }
}

// The design upload's form (/upload and its API calls): one file field, cut at 50 MB as it streams.
import { AppError } from "~/domain/app-error";
import { MAX_DESIGN_BYTES, MESSAGES } from "~/domain/design-settings";
import { UNREADABLE_UPLOAD_MESSAGE } from "~/domain/upload-limits";
import { incomingUploadPath } from "~/services/storage.server";
import { scratchBudget } from "~/services/storage/scratch.server";
import { readStreamedForm, type IncomingFile } from "~/utils/streamed-form.server";

/** The form field that carries the design file. */
export const FILE_FIELD = "file";

export interface DesignForm {
  fields: FormData;
  file: IncomingFile | null;
  /** the body could not be taken (too large, unreadable); `fields` then holds the text fields that arrived */
  error: AppError | null;
  /** removes the incoming file; call it once the design is stored or refused */
  discard: () => Promise<void>;
}

const fileError = (code: "invalid" | "too_large", message: string) => new AppError(code, message, { field: FILE_FIELD });

/**
 * The design upload form: only the `file` field may carry a file, refused the moment it passes 50 MB. A refused
 * body (or one the scratch budget has no room for: busy, 503) comes back with its error and the fields that could be read.
 */
export async function readDesignForm(request: Request): Promise<DesignForm> {
  const form = await readStreamedForm(request, {
    files: { [FILE_FIELD]: { maxBytes: MAX_DESIGN_BYTES, tooLarge: fileError("too_large", MESSAGES.tooLarge) } },
    unreadable: fileError("invalid", UNREADABLE_UPLOAD_MESSAGE),
    tooManyFiles: fileError("invalid", "Please upload one design file at a time."),
    notMultipart: fileError("invalid", "Send the design as a multipart/form-data form."),
    defaultName: "design",
    incomingPath: incomingUploadPath,
    reserve: (bytes) => scratchBudget().reserve(bytes),
  });
  return { fields: form.fields, file: form.files.get(FILE_FIELD) ?? null, error: form.error, discard: form.discard };
}

// The HTTP side of a library model upload, shared by /upload-model and POST /api/models: read the form as it
// streams (files to disk) or the API's JSON, count the upload, check the fields with the one schema, run
// uploadLibraryModel, and answer as a page (conform's result) or as JSON.
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data } from "@remix-run/node";
import { openAsBlob } from "node:fs";
import type { User } from "../../db/schema";
import { AppError, isAppError } from "~/domain/app-error";
import { createModelUploadSchema, IMAGE_TOO_LARGE_MESSAGE, MAX_IMAGE_BYTES, ModelPayloadSchema } from "~/domain/model-upload";
import { FILE_TOO_LARGE_MESSAGE, UNREADABLE_UPLOAD_MESSAGE } from "~/domain/upload-limits";
import { readStreamedForm, type StreamedForm } from "~/utils/streamed-form.server";
import { countModelUpload, uploadLibraryModel } from "~/services/models/library-upload.server";
import { incomingUploadPath, MAX_DESIGN_BYTES } from "~/services/storage.server";
import { scratchBudget } from "~/services/storage/scratch.server";
import { readJson } from "~/utils/api.server";
import { httpStatusOf, retryHeaders } from "~/utils/app-error.server";
import { redirectWithToast } from "~/utils/toast.server";

const FILE_FIELDS = ["modelFile", "image"];

/** The upload form as it streams: the model file cut at 50 MB (413), the picture at 5 MB (a field error). */
function readModelForm(request: Request): Promise<StreamedForm> {
  return readStreamedForm(request, {
    files: {
      modelFile: {
        maxBytes: MAX_DESIGN_BYTES,
        tooLarge: new AppError("too_large", FILE_TOO_LARGE_MESSAGE, { field: "modelFile" }),
      },
      image: { maxBytes: MAX_IMAGE_BYTES, tooLarge: new AppError("invalid", IMAGE_TOO_LARGE_MESSAGE, { field: "image" }) },
    },
    unreadable: new AppError("invalid", UNREADABLE_UPLOAD_MESSAGE),
    tooManyFiles: new AppError("invalid", UNREADABLE_UPLOAD_MESSAGE),
    // a post without files is a form too
    notMultipart: null,
    defaultName: "model",
    incomingPath: incomingUploadPath,
    reserve: (bytes) => scratchBudget().reserve(bytes),
  });
}

/**
 * The fields as the one form schema reads them: the files on disk stand in as disk-backed Files (the schema
 * checks their names and sizes; nothing reads them into memory).
 */
async function formWithFiles(form: StreamedForm): Promise<FormData> {
  const formData = new FormData();
  for (const [name, value] of form.fields) formData.append(name, value);
  for (const [name, file] of form.files) formData.set(name, new File([await openAsBlob(file.path)], file.name));
  return formData;
}

type UploadOutcome = { ok: true; id: number } | { ok: false; error: AppError | null; result: SubmissionResult<string[]> };
type ModelSubmission = Awaited<ReturnType<typeof parseWithZod<ReturnType<typeof createModelUploadSchema>>>>;

/** A refused upload: conform's reply with the message on its field (or the form), keeping what was typed but the files. */
function refused(submission: ModelSubmission, error: AppError): UploadOutcome {
  const errors = error.field ? { fieldErrors: { [error.field]: [error.message] } } : { formErrors: [error.message] };
  return { ok: false, error, result: submission.reply({ ...errors, hideFields: FILE_FIELDS }) };
}

/** The typed fields alone, for an answer when the files could not be read. */
function textFields(form: StreamedForm): FormData {
  const formData = new FormData();
  for (const [name, value] of form.fields) formData.append(name, value);
  return formData;
}

async function postModelForm(request: Request, user: User): Promise<UploadOutcome> {
  const form = await readModelForm(request);
  const schema = createModelUploadSchema({ maxModelBytes: MAX_DESIGN_BYTES });
  let submission: ModelSubmission = parseWithZod(textFields(form), { schema });
  try {
    if (form.error) return refused(submission, form.error);
    // counted once the body is read (answering an upload before reading it resets the connection in Chrome)
    await countModelUpload(user.id);
    submission = parseWithZod(await formWithFiles(form), { schema });
    if (submission.status !== "success") return { ok: false, error: null, result: submission.reply({ hideFields: FILE_FIELDS }) };
    const { modelFile: _modelFile, image: _image, ...fields } = submission.value;
    const id = await uploadLibraryModel({
      creatorId: user.id,
      fields,
      modelFile: form.files.get("modelFile") ?? null,
      image: form.files.get("image") ?? null,
    });
    return { ok: true, id };
  } catch (error) {
    // a refused field shows under its input, anything else as the form's error; what was typed stays
    if (isAppError(error)) return refused(submission, error);
    throw error;
  } finally {
    // the incoming files are removed on every way out (storing them made copies)
    await form.discard();
  }
}

/** /upload-model's answer: the new model's page with the success toast, or the form again with the reason. */
export async function modelUploadPageAnswer(request: Request, user: User) {
  const outcome = await postModelForm(request, user);
  if (outcome.ok) {
    return redirectWithToast(`/models/library/${outcome.id}`, {
      title: "Success!",
      description: "Your model has been uploaded successfully.",
    });
  }
  // a body cut at its limit keeps 413: the server stopped reading it
  const status = outcome.error ? httpStatusOf(outcome.error) : 400;
  const headers = outcome.error ? retryHeaders(outcome.error) : undefined;
  return data({ result: outcome.result }, { status, headers });
}

/** POST /api/models: the documented JSON payload (no files; those go through the page) → 201 {id} with Location. */
export async function modelUploadApiAnswer(request: Request, user: User): Promise<Response> {
  await countModelUpload(user.id);
  const parsed = ModelPayloadSchema.safeParse(await readJson(request));
  if (!parsed.success) throw new AppError("invalid", parsed.error.issues[0]?.message ?? "Invalid model.");
  const id = await uploadLibraryModel({ creatorId: user.id, fields: parsed.data });
  return Response.json({ id }, { status: 201, headers: { Location: `/api/models/library/${id}` } });
}

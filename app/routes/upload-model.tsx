import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import {
  FormDataParseError,
  MaxFileSizeExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  parseFormData,
} from "@remix-run/form-data-parser";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useMemo } from "react";
import { z } from "zod";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { UPLOAD_LICENSES } from "~/domain/licenses";
import { CATEGORY_MESSAGE, createModelUploadSchema, IMAGE_TYPE_MESSAGE, MAX_IMAGE_BYTES } from "~/domain/model-upload";
import { MODEL_DIFFICULTIES } from "~/domain/models";
import { FILE_TOO_LARGE_MESSAGE } from "~/domain/upload-limits";
import { MeshError, type AnalysisResult } from "~/domain/mesh";
import { parseModel, renderPreviewPng } from "~/domain/mesh";
import { AnalysisBusyError, AnalysisTimeoutError, analyzeOffThread } from "~/services/analysis-pool.server";
import { hitModelUploadLimit, modelUploadLimitMessage } from "~/services/design-quotas.server";
import { createLibraryModel } from "~/services/models/library.server";
import { categoryExists, listCategories } from "~/services/models/lists.server";
import { getStorage, MAX_DESIGN_BYTES, newStorageKey } from "~/services/storage.server";
import { getSessionUser, requireUser } from "~/utils/session.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Upload Model | Printnear" }];

/** PNG, JPEG or WebP by their first bytes; the name and the browser's type are not trusted. */
function sniffImage(bytes: Uint8Array): { ext: string; type: string } | null {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { ext: "png", type: "image/png" };
  if (starts([0xff, 0xd8, 0xff])) return { ext: "jpg", type: "image/jpeg" };
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return { ext: "webp", type: "image/webp" };
  return null;
}

/** The form schema plus the checks that need the server: the category exists, the file is a model, the image is an image. */
function serverSchema() {
  return createModelUploadSchema({ maxModelBytes: MAX_DESIGN_BYTES }).transform(async (value, ctx) => {
    if (!(await categoryExists(value.categoryId))) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["categoryId"], message: CATEGORY_MESSAGE });
    }
    let model: { file: File; bytes: Uint8Array; analysis: AnalysisResult } | null = null;
    if (value.modelFile) {
      const bytes = new Uint8Array(await value.modelFile.arrayBuffer());
      try {
        // in the analysis pool's worker threads, off the request thread
        const { analysis } = await analyzeOffThread(bytes, value.modelFile.name);
        model = { file: value.modelFile, bytes, analysis };
      } catch (error) {
        if (!(error instanceof MeshError) && !(error instanceof AnalysisTimeoutError)) throw error;
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["modelFile"], message: error.message });
      }
    }
    let image: { bytes: Uint8Array<ArrayBuffer>; ext: string; type: string } | null = null;
    if (value.image) {
      const bytes = new Uint8Array(await value.image.arrayBuffer());
      const kind = sniffImage(bytes);
      if (kind) image = { bytes, ...kind };
      else ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["image"], message: IMAGE_TYPE_MESSAGE });
    }
    return { ...value, model, image };
  });
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getSessionUser(request);
  return {
    signedIn: Boolean(user),
    categories: user ? await listCategories() : [],
    maxModelBytes: MAX_DESIGN_BYTES,
  };
}

function uploadFailure(message: string, field: string, status: number) {
  const result: SubmissionResult<string[]> = { status: "error", error: { [field]: [message] } };
  return data({ result, message }, { status });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  let formData: FormData;
  try {
    // files stay in memory: the analysis reads every byte anyway, and nothing is stored before the form is valid
    formData = await parseFormData(request, { maxFileSize: MAX_DESIGN_BYTES, maxFiles: 2 }, (upload) =>
      upload.fieldName === "modelFile" || upload.fieldName === "image" ? upload : null,
    );
  } catch (error) {
    if (error instanceof MaxFileSizeExceededError || error instanceof MaxTotalSizeExceededError) {
      return uploadFailure(FILE_TOO_LARGE_MESSAGE, "modelFile", 413);
    }
    if (error instanceof FormDataParseError || error instanceof MultipartParseError) {
      return uploadFailure("The upload could not be read. Please try again.", "", 400);
    }
    throw error;
  }

  // counted once the body is read (answering an upload before reading it resets the connection in Chrome)
  const limit = await hitModelUploadLimit(user.id);
  if (!limit.allowed) return uploadFailure(modelUploadLimitMessage(limit.retryAfterSeconds), "", 429);

  let submission;
  try {
    submission = await parseWithZod(formData, { schema: serverSchema(), async: true });
  } catch (error) {
    if (error instanceof AnalysisBusyError) return uploadFailure(error.message, "", 503);
    throw error;
  }
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["modelFile", "image"] }), message: null }, { status: 400 });
  }
  const value = submission.value;
  const storage = getStorage();
  const stored: string[] = [];
  try {
    let file = null;
    if (value.model) {
      const { analysis } = value.model;
      const storageKey = newStorageKey("models", analysis.fileFormat);
      await storage.set(storageKey, value.model.file);
      stored.push(storageKey);
      file = {
        name: value.model.file.name,
        sizeBytes: value.model.bytes.byteLength,
        format: analysis.fileFormat,
        storageKey,
        analysis,
      };
    }
    let imageKey: string | null = null;
    if (value.image) {
      imageKey = newStorageKey("model-images", value.image.ext);
      await storage.set(imageKey, new File([value.image.bytes], `image.${value.image.ext}`, { type: value.image.type }));
      stored.push(imageKey);
    } else if (value.model) {
      // without a picture of its own, the model shows a thumbnail rendered from its mesh
      const png = renderPreviewPng(await parseModel(value.model.bytes, value.model.file.name));
      imageKey = newStorageKey("model-images", "png");
      await storage.set(imageKey, new File([new Uint8Array(png)], "image.png", { type: "image/png" }));
      stored.push(imageKey);
    }
    const id = await createLibraryModel({
      creatorId: user.id,
      name: value.name,
      description: value.description,
      categoryId: value.categoryId,
      difficulty: value.difficulty,
      // a file's analysis is the better estimate than numbers typed by hand
      printTimeMinutes: value.model ? value.model.analysis.estimatedTimeMinutes : value.printTime,
      filamentWeightGrams: value.model ? value.model.analysis.estimatedWeight : value.filamentWeight,
      supportRequired: value.supportRequired,
      license: value.license,
      tags: value.tags,
      imageKey,
      file,
    });
    return redirectWithToast(`/models/library/${id}`, {
      title: "Success!",
      description: "Your model has been uploaded successfully.",
    });
  } catch (error) {
    await Promise.all(stored.map((key) => Promise.resolve(storage.remove(key)).catch(() => {})));
    throw error;
  }
}

export default function UploadModel() {
  const { signedIn, categories, maxModelBytes } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const uploading = navigation.state === "submitting" && navigation.formAction === "/upload-model";
  const schema = useMemo(() => createModelUploadSchema({ maxModelBytes }), [maxModelBytes]);

  const [form, fields] = useForm({
    id: "upload-model",
    lastResult: actionData?.result,
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { difficulty: "beginner", license: "CC BY", printTime: "0", filamentWeight: "0" },
  });

  if (!signedIn) {
    return (
      <div className="container-page flex justify-center py-16">
        <div className="card w-full max-w-md p-8 text-center">
          <h1 className="text-2xl font-bold">Authentication Required</h1>
          <p className="mt-2 text-slate-600">Please log in to upload models to the library.</p>
          <Link to={`/login?${new URLSearchParams({ redirectTo: "/upload-model" })}`} className="btn-primary mt-6">
            Log In
          </Link>
        </div>
      </div>
    );
  }

  const error = (name: keyof typeof fields) => fields[name].errors?.[0];
  const formError = actionData?.message ?? form.errors?.[0];

  return (
    <div className="container-page max-w-3xl py-8">
      <h1 className="text-3xl font-bold tracking-tight">Upload Model</h1>
      <p className="mt-2 text-slate-600">
        Share a model with the Printnear library so others can download it and have it printed.
      </p>

      {formError ? (
        <div role="alert" className="mt-6 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          <p className="font-semibold">Error</p>
          <p>{formError}</p>
        </div>
      ) : null}

      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="card mt-6 space-y-5 p-6">
        <div>
          <label htmlFor={fields.name.id} className="label">
            Name
          </label>
          <input {...getInputProps(fields.name, { type: "text" })} className="input" placeholder="e.g. Articulated Dragon" />
          <p className="field-error" id={fields.name.errorId}>
            {error("name")}
          </p>
        </div>
        <div>
          <label htmlFor={fields.description.id} className="label">
            Description
          </label>
          <textarea
            {...getTextareaProps(fields.description)}
            rows={4}
            className="input"
            placeholder="What is it, how does it print, what is it for?"
          />
          <p className="field-error" id={fields.description.errorId}>
            {error("description")}
          </p>
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <div>
            <label htmlFor={fields.categoryId.id} className="label">
              Category
            </label>
            <select {...getSelectProps(fields.categoryId)} className="input">
              <option value="">Select a category</option>
              {categories.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
            <p className="field-error" id={fields.categoryId.errorId}>
              {error("categoryId")}
            </p>
          </div>
          <div>
            <label htmlFor={fields.difficulty.id} className="label">
              Difficulty
            </label>
            <select {...getSelectProps(fields.difficulty)} className="input">
              {MODEL_DIFFICULTIES.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.label}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={fields.printTime.id} className="label">
              Print time (minutes)
            </label>
            <input {...getInputProps(fields.printTime, { type: "number" })} min={0} step={1} className="input" />
            <p className="field-error" id={fields.printTime.errorId}>
              {error("printTime")}
            </p>
          </div>
          <div>
            <label htmlFor={fields.filamentWeight.id} className="label">
              Filament weight (grams)
            </label>
            <input {...getInputProps(fields.filamentWeight, { type: "number" })} min={0} step={1} className="input" />
            <p className="field-error" id={fields.filamentWeight.errorId}>
              {error("filamentWeight")}
            </p>
          </div>
          <div>
            <label htmlFor={fields.license.id} className="label">
              License
            </label>
            <select {...getSelectProps(fields.license)} className="input">
              {UPLOAD_LICENSES.map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
            </select>
            <p className="mt-1 text-xs text-slate-500">CC BY-NC models can be downloaded but not ordered as paid prints.</p>
          </div>
          <div>
            <label htmlFor={fields.tags.id} className="label">
              Tags (comma-separated)
            </label>
            <input {...getInputProps(fields.tags, { type: "text" })} className="input" placeholder="dragon, desk toy" />
          </div>
        </div>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input {...getInputProps(fields.supportRequired, { type: "checkbox" })} className="h-4 w-4 rounded border-slate-300" />
          Support required
        </label>

        <div className="grid gap-5 sm:grid-cols-2">
          <div>
            <label htmlFor={fields.modelFile.id} className="label">
              Model file (STL, OBJ or 3MF, up to 50 MB)
            </label>
            <input {...getInputProps(fields.modelFile, { type: "file" })} accept=".stl,.obj,.3mf" className="input" />
            <p className="mt-1 text-xs text-slate-500">With a file, the filament weight and print time are measured from it.</p>
            <p className="field-error" id={fields.modelFile.errorId}>
              {error("modelFile")}
            </p>
          </div>
          <div>
            <label htmlFor={fields.image.id} className="label">
              Image (PNG, JPEG or WebP, up to {MAX_IMAGE_BYTES / 1024 / 1024} MB)
            </label>
            <input
              {...getInputProps(fields.image, { type: "file" })}
              accept="image/png,image/jpeg,image/webp"
              className="input"
            />
            <p className="field-error" id={fields.image.errorId}>
              {error("image")}
            </p>
          </div>
        </div>

        <div className="flex justify-end gap-3 border-t border-slate-100 pt-5">
          <Link to="/models" className="btn-secondary">
            Cancel
          </Link>
          <button type="submit" className="btn-primary" disabled={uploading}>
            {uploading ? "Uploading..." : "Upload Model"}
          </button>
        </div>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

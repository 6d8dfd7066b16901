import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DESIGN_EXTENSIONS } from "~/domain/design-settings";
import { UPLOAD_LICENSES } from "~/domain/licenses";
import { createModelUploadSchema, MAX_IMAGE_BYTES } from "~/domain/model-upload";
import { MODEL_DIFFICULTIES } from "~/domain/models";
import { listCategories } from "~/services/models/lists.server";
import { MAX_DESIGN_BYTES } from "~/services/storage.server";
import { getSessionUser, requireUser } from "~/utils/session.server";
import { modelUploadPageAnswer } from "./upload-model.server";
import { useIsPending } from "~/utils/misc-react";

export const meta: MetaFunction = () => [{ title: "Upload Model | Printnear" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getSessionUser(request);
  return {
    signedIn: Boolean(user),
    categories: user ? await listCategories() : [],
    maxModelBytes: MAX_DESIGN_BYTES,
  };
}

// the form streams to disk and is checked and stored by services/models/library-upload.server.ts
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return modelUploadPageAnswer(request, user);
}

export default function UploadModel() {
  const { signedIn, categories, maxModelBytes } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const uploading = useIsPending({ state: "submitting", formAction: "/upload-model" });
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
            <input
              {...getInputProps(fields.modelFile, { type: "file" })}
              accept={DESIGN_EXTENSIONS.join(",")}
              className="input"
            />
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

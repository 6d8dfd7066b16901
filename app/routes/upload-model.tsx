import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Form } from "~/components/form";
import { Link } from "~/components/link";
import { useMemo } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { CheckboxField, ErrorList, Field, SelectField, TextareaField } from "~/components/forms";
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

  return (
    <div className="container-page max-w-3xl py-8">
      <h1 className="text-3xl font-bold tracking-tight">Upload Model</h1>
      <p className="mt-2 text-slate-600">
        Share a model with the Printnear library so others can download it and have it printed.
      </p>

      {form.errors?.length ? (
        <div role="alert" className="mt-6 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          <p className="font-semibold">Error</p>
          <ErrorList id={form.errorId} errors={form.errors} />
        </div>
      ) : null}

      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="card mt-6 space-y-5 p-6">
        <Field
          labelProps={{ children: "Name" }}
          inputProps={{ ...getInputProps(fields.name, { type: "text" }), placeholder: "e.g. Articulated Dragon" }}
          errors={fields.name.errors}
        />
        <TextareaField
          labelProps={{ children: "Description" }}
          textareaProps={{
            ...getTextareaProps(fields.description),
            rows: 4,
            placeholder: "What is it, how does it print, what is it for?",
          }}
          errors={fields.description.errors}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <SelectField
            labelProps={{ children: "Category" }}
            selectProps={getSelectProps(fields.categoryId)}
            errors={fields.categoryId.errors}
          >
            <option value="">Select a category</option>
            {categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </SelectField>
          <SelectField
            labelProps={{ children: "Difficulty" }}
            selectProps={getSelectProps(fields.difficulty)}
            errors={fields.difficulty.errors}
          >
            {MODEL_DIFFICULTIES.map((d) => (
              <option key={d.id} value={d.id}>
                {d.label}
              </option>
            ))}
          </SelectField>
          <Field
            labelProps={{ children: "Print time (minutes)" }}
            inputProps={{ ...getInputProps(fields.printTime, { type: "number" }), min: 0, step: 1 }}
            errors={fields.printTime.errors}
          />
          <Field
            labelProps={{ children: "Filament weight (grams)" }}
            inputProps={{ ...getInputProps(fields.filamentWeight, { type: "number" }), min: 0, step: 1 }}
            errors={fields.filamentWeight.errors}
          />
          <SelectField
            labelProps={{ children: "License" }}
            selectProps={getSelectProps(fields.license)}
            help="CC BY-NC models can be downloaded but not ordered as paid prints."
            errors={fields.license.errors}
          >
            {UPLOAD_LICENSES.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </SelectField>
          <Field
            labelProps={{ children: "Tags (comma-separated)" }}
            inputProps={{ ...getInputProps(fields.tags, { type: "text" }), placeholder: "dragon, desk toy" }}
            errors={fields.tags.errors}
          />
        </div>
        <CheckboxField
          labelProps={{ children: "Support required" }}
          inputProps={getInputProps(fields.supportRequired, { type: "checkbox" })}
          errors={fields.supportRequired.errors}
        />

        <div className="grid gap-5 sm:grid-cols-2">
          <Field
            labelProps={{ children: "Model file (STL, OBJ or 3MF, up to 50 MB)" }}
            inputProps={{ ...getInputProps(fields.modelFile, { type: "file" }), accept: DESIGN_EXTENSIONS.join(",") }}
            help="With a file, the filament weight and print time are measured from it."
            errors={fields.modelFile.errors}
          />
          <Field
            labelProps={{ children: `Image (PNG, JPEG or WebP, up to ${MAX_IMAGE_BYTES / 1024 / 1024} MB)` }}
            inputProps={{ ...getInputProps(fields.image, { type: "file" }), accept: "image/png,image/jpeg,image/webp" }}
            errors={fields.image.errors}
          />
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

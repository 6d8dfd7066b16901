import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FieldError, MaterialCheckboxes, ModelSelect } from "~/components/printer-form";
import { AddPrinterSchema, applyModelPreset, LOCATION_NOT_FOUND, MODEL_OPTIONS, modelPreset } from "~/domain/printer-form";
import { CUSTOM_PRINTER_MODEL_NAME, findPrinterModel } from "~/domain/printer-models";
import { checkPrinterPhoto } from "~/services/printers/images.server";
import { newPrinterFromForm, placePrinter } from "~/services/printers/owner.server";
import { useIsPending } from "~/utils/misc-react";
import { requireUser } from "~/utils/session.server";
import { listNewPrinter, readPrinterForm } from "./printers.server";

export const meta: MetaFunction = () => [{ title: "Add Printer | Printnear" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  // ?model=prusa-mk4 opens the form with that model chosen and filled, with or without JavaScript.
  const model = findPrinterModel(new URL(request.url).searchParams.get("model"));
  return { model: model?.name ?? "" };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const read = await readPrinterForm(request);
  if ("failure" in read) return data({ result: read.failure.result }, { status: read.failure.status });
  const formData = applyModelPreset(read.formData);
  const submission = parseWithZod(formData, { schema: AddPrinterSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply() }, { status: 400 });
  }
  const values = submission.value;
  const placement = placePrinter(values.location, values);
  const photo = values.image ? await checkPrinterPhoto(values.image) : null;
  if (!placement || (photo && !photo.ok)) {
    return data(
      {
        result: submission.reply({
          fieldErrors: {
            ...(placement ? {} : { location: [LOCATION_NOT_FOUND] }),
            ...(photo && !photo.ok ? { image: [photo.message] } : {}),
          },
        }),
      },
      { status: 400 },
    );
  }
  return listNewPrinter(
    user,
    submission,
    newPrinterFromForm(values, placement, { isAvailable: values.isAvailable === true, photo: photo?.ok ? photo : null }),
  );
}

export default function AddPrinter() {
  const { model: initialModel } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const submitting = useIsPending({ state: "submitting" });
  const initialPreset = modelPreset(initialModel);
  const [form, fields] = useForm({
    id: "add-printer",
    lastResult: actionData?.result,
    constraint: getZodConstraint(AddPrinterSchema),
    onValidate: ({ formData }) => parseWithZod(applyModelPreset(formData), { schema: AddPrinterSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { model: initialModel, isAvailable: "on", ...(initialPreset ?? {}) },
  });
  const [modelName, setModelName] = useState<string>(String(fields.model.initialValue ?? initialModel));
  const known = findPrinterModel(modelName);
  const locked = Boolean(known?.buildVolume);
  const isCustom = known?.name === CUSTOM_PRINTER_MODEL_NAME;

  function chooseModel(name: string) {
    setModelName(name);
    const preset = modelPreset(name);
    // A known model fills and locks the volume and suggests price and materials; Custom/Other clears them.
    form.update({ name: fields.buildVolumeX.name, value: preset?.buildVolumeX ?? "" });
    form.update({ name: fields.buildVolumeY.name, value: preset?.buildVolumeY ?? "" });
    form.update({ name: fields.buildVolumeZ.name, value: preset?.buildVolumeZ ?? "" });
    form.update({ name: fields.pricePerGram.name, value: preset?.pricePerGram ?? "" });
    form.update({ name: fields.materials.name, value: preset?.materials ?? [] });
  }

  const volume = (field: typeof fields.buildVolumeX, axis: string) => {
    const { key, ...props } = getInputProps(field, { type: "number" });
    return (
      <div>
        <label className="label" htmlFor={field.id}>
          {axis} (mm)
        </label>
        <input key={key} {...props} className="input read-only:bg-slate-100" readOnly={locked} min={1} step={1} />
        <FieldError id={field.errorId} errors={field.errors} />
      </div>
    );
  };

  const { key: modelKey, ...modelProps } = getSelectProps(fields.model);
  const { key: priceKey, ...priceProps } = getInputProps(fields.pricePerGram, { type: "number" });
  return (
    <div className="container-page max-w-3xl py-8">
      <h1 className="text-2xl font-bold">Add Printer</h1>
      <p className="mt-1 text-slate-600">List your printer so customers nearby can send it print jobs.</p>

      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="card mt-6 space-y-6 p-6">
        {form.errors?.length ? (
          <p className="field-error" role="alert">
            {form.errors[0]}
          </p>
        ) : null}
        <div>
          <label className="label" htmlFor={fields.name.id}>
            Printer name
          </label>
          <input {...getInputProps(fields.name, { type: "text" })} className="input" placeholder="e.g. Garage Prusa" />
          <FieldError id={fields.name.errorId} errors={fields.name.errors} />
        </div>

        <div className="grid gap-4 sm:grid-cols-2">
          <ModelSelect
            key={modelKey}
            selectProps={modelProps}
            errorId={fields.model.errorId}
            errors={fields.model.errors}
            options={MODEL_OPTIONS}
            onChoose={chooseModel}
          />
          {isCustom ? (
            <div>
              <label className="label" htmlFor={fields.customModel.id}>
                Model name (optional)
              </label>
              <input {...getInputProps(fields.customModel, { type: "text" })} className="input" placeholder="e.g. Voron 2.4" />
              <FieldError id={fields.customModel.errorId} errors={fields.customModel.errors} />
            </div>
          ) : (
            <noscript>
              <div>
                <label className="label" htmlFor="customModel-noscript">
                  Model name for Custom/Other (optional)
                </label>
                <input id="customModel-noscript" name="customModel" className="input" placeholder="e.g. Voron 2.4" />
              </div>
            </noscript>
          )}
        </div>
        {known?.buildVolume ? (
          <img src={known.imagePath} alt="" className="h-24 w-24 rounded border border-slate-200" data-testid="model-image" />
        ) : null}

        <div>
          <label className="label" htmlFor={fields.description.id}>
            Description (optional)
          </label>
          <textarea
            {...getTextareaProps(fields.description)}
            className="input min-h-24"
            placeholder="What you print best, pickup details..."
          />
          <FieldError id={fields.description.errorId} errors={fields.description.errors} />
        </div>

        <fieldset>
          <legend className="label">Build volume</legend>
          <div className="grid grid-cols-3 gap-3">
            {volume(fields.buildVolumeX, "X")}
            {volume(fields.buildVolumeY, "Y")}
            {volume(fields.buildVolumeZ, "Z")}
          </div>
          <p className="mt-1 text-xs text-slate-500" data-testid="volume-hint">
            {locked
              ? `Locked to the ${known!.name}'s build volume. Choose Custom/Other to enter your own.`
              : "Choosing a known model fills this in. For Custom/Other, enter your printer's build volume."}
          </p>
          <noscript>
            <p className="text-xs text-slate-500">
              For a known model you can leave these blank: we use the model's build volume, suggested price and materials.
            </p>
          </noscript>
        </fieldset>

        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label className="label" htmlFor={fields.location.id}>
              Location
            </label>
            <input
              {...getInputProps(fields.location, { type: "text" })}
              className="input"
              placeholder="City, State (e.g. Loveland, CO) or full address"
            />
            <FieldError id={fields.location.errorId} errors={fields.location.errors} />
          </div>
          <div>
            <label className="label" htmlFor={fields.pricePerGram.id}>
              Price per gram (USD)
            </label>
            <input key={priceKey} {...priceProps} className="input" step="0.01" min="0.01" placeholder="0.12" />
            <FieldError id={fields.pricePerGram.errorId} errors={fields.pricePerGram.errors} />
          </div>
        </div>

        <details
          className="rounded-md border border-slate-200 p-3"
          open={Boolean(fields.latitude.errors || fields.longitude.errors)}
        >
          <summary className="cursor-pointer text-sm font-medium text-slate-700">Exact coordinates (optional)</summary>
          <p className="mt-2 text-xs text-slate-500">Without them we place the printer from its location text.</p>
          <div className="mt-2 grid grid-cols-2 gap-3">
            <div>
              <label className="label" htmlFor={fields.latitude.id}>
                Latitude
              </label>
              <input {...getInputProps(fields.latitude, { type: "number" })} className="input" step="any" placeholder="40.3953" />
              <FieldError id={fields.latitude.errorId} errors={fields.latitude.errors} />
            </div>
            <div>
              <label className="label" htmlFor={fields.longitude.id}>
                Longitude
              </label>
              <input
                {...getInputProps(fields.longitude, { type: "number" })}
                className="input"
                step="any"
                placeholder="-105.0717"
              />
              <FieldError id={fields.longitude.errorId} errors={fields.longitude.errors} />
            </div>
          </div>
        </details>

        <MaterialCheckboxes field={fields.materials} />

        <div>
          <label className="label" htmlFor={fields.image.id}>
            Photo (optional)
          </label>
          <input
            {...getInputProps(fields.image, { type: "file" })}
            accept="image/jpeg,image/png,image/webp"
            className="block text-sm"
          />
          <p className="mt-1 text-xs text-slate-500">JPEG, PNG or WebP, up to 5 MB.</p>
          <FieldError id={fields.image.errorId} errors={fields.image.errors} />
        </div>

        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input {...getInputProps(fields.isAvailable, { type: "checkbox" })} className="h-4 w-4 rounded border-slate-300" />
          Available for new orders
        </label>

        <div className="flex flex-wrap gap-3">
          <button type="submit" className="btn-primary" disabled={submitting}>
            {submitting ? "Adding Printer..." : "Add Printer to Marketplace"}
          </button>
          <Link to="/dashboard" className="btn-secondary">
            Cancel
          </Link>
        </div>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

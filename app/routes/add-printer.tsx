import { getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Field } from "~/components/forms";
import { ModelSelect, PrinterForm } from "~/components/printer-form";
import { AddPrinterSchema, applyModelPreset, MODEL_OPTIONS, modelPreset } from "~/domain/printer-form";
import { CUSTOM_PRINTER_MODEL_NAME, findPrinterModel } from "~/domain/printer-models";
import { newPrinterFromForm } from "~/services/printers/owner.server";
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
  const submission = parseWithZod(applyModelPreset(read.formData), { schema: AddPrinterSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const values = submission.value;
  return listNewPrinter(user, submission, () =>
    newPrinterFromForm(values, { isAvailable: values.isAvailable === true, photo: values.image ?? null }),
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

  const volume = (field: typeof fields.buildVolumeX, axis: string) => (
    <Field
      labelProps={{ children: `${axis} (mm)` }}
      inputProps={{
        ...getInputProps(field, { type: "number" }),
        className: "input read-only:bg-slate-100",
        readOnly: locked,
        min: 1,
        step: 1,
      }}
      errors={field.errors}
    />
  );

  return (
    <div className="container-page max-w-3xl py-8">
      <h1 className="text-2xl font-bold">Add Printer</h1>
      <p className="mt-1 text-slate-600">List your printer so customers nearby can send it print jobs.</p>
      <PrinterForm
        mode="add"
        form={form}
        fields={fields}
        pending={submitting}
        model={
          <>
            <div className="grid gap-4 sm:grid-cols-2">
              <ModelSelect
                selectProps={getSelectProps(fields.model)}
                errors={fields.model.errors}
                options={MODEL_OPTIONS}
                onChoose={chooseModel}
              />
              {isCustom ? (
                <Field
                  labelProps={{ children: "Model name (optional)" }}
                  inputProps={{ ...getInputProps(fields.customModel, { type: "text" }), placeholder: "e.g. Voron 2.4" }}
                  errors={fields.customModel.errors}
                />
              ) : (
                <noscript>
                  <Field
                    labelProps={{ children: "Model name for Custom/Other (optional)" }}
                    inputProps={{ id: "customModel-noscript", name: "customModel", placeholder: "e.g. Voron 2.4" }}
                  />
                </noscript>
              )}
            </div>
            {known?.buildVolume ? (
              <img src={known.imagePath} alt="" className="h-24 w-24 rounded border border-slate-200" data-testid="model-image" />
            ) : null}
          </>
        }
        buildVolume={
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
        }
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

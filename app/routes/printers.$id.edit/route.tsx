import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DEFAULT_PRINTER_IMAGE, DeletePrinterButton, isPrinterDrawing, PrinterPhoto } from "~/components/printer-card";
import { FieldError, MaterialCheckboxes } from "~/components/printer-form";
import { isAppError, type AppError } from "~/domain/app-error";
import { InventorySchema, LOCATION_NOT_FOUND, PrinterSettingsSchema, StockRowSchema } from "~/domain/printer-form";
import { checkPrinterPhoto } from "~/services/printers/images.server";
import { placeAfterEdit, removeStock, setStock, updatePrinter } from "~/services/printers/owner.server";
import { getPrinterJson } from "~/services/printers/search.server";
import { httpStatusOf, replyWithError, retryHeaders } from "~/utils/app-error.server";
import { requireIdParam } from "~/utils/misc";
import { redirectWithToast } from "~/utils/toast.server";
import { readPrinterForm, requirePrinterOwner } from "../printers.server";
import { FilamentStock } from "./filament-stock";
import { useIsPending } from "~/utils/misc-react";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.printer.name ? `${data.printer.name} settings` : "Printer settings"} | Printnear` },
];

function printerId(params: { id?: string }): number {
  return requireIdParam(params.id, "Printer not found");
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, printer: row } = await requirePrinterOwner(request, printerId(params));
  // the owner's own page: the typed location and exact coordinates, not the public rounding
  const printer = (await getPrinterJson(row.id, { viewerId: user.id }))!;
  return { printer };
}

type InventoryReply = { intent: "inventory"; key: string; message: string };

export async function action({ request, params }: ActionFunctionArgs) {
  const { user, printer } = await requirePrinterOwner(request, printerId(params));
  const back = `/printers/${printer.id}/edit`;
  const read = await readPrinterForm(request);
  if ("failure" in read)
    return data({ intent: "settings" as const, result: read.failure.result }, { status: read.failure.status });
  const formData = read.formData;
  const intent = String(formData.get("intent") ?? "");

  if (intent === "inventory-set" || intent === "inventory-remove") {
    const key = String(formData.get("rowKey") ?? "new");
    const fail = (message: string, status = 400, headers?: HeadersInit) =>
      data({ intent: "inventory", key, message } satisfies InventoryReply, { status, headers });
    const failWith = (error: AppError) => fail(error.message, httpStatusOf(error), retryHeaders(error));
    if (intent === "inventory-remove") {
      const row = StockRowSchema.safeParse(Object.fromEntries(formData));
      if (!row.success) return fail(row.error.issues[0]?.message ?? "Check the filament row");
      try {
        await removeStock(user, printer.id, row.data);
      } catch (error) {
        if (isAppError(error)) return failWith(error);
        throw error;
      }
      return redirectWithToast(`${back}#inventory`, {
        title: "Inventory updated",
        description: `${row.data.color} ${row.data.material} removed.`,
      });
    }
    const row = InventorySchema.safeParse({ ...Object.fromEntries(formData), grams: numberOrUndefined(formData.get("grams")) });
    if (!row.success) return fail(row.error.issues[0]?.message ?? "Check the filament row");
    const { material, color, grams } = row.data;
    try {
      await setStock(user, printer, { material, color, grams });
    } catch (error) {
      if (isAppError(error)) return failWith(error);
      throw error;
    }
    return redirectWithToast(`${back}#inventory`, {
      title: "Inventory updated",
      description: `${color} ${material}: ${grams} g in stock.`,
    });
  }

  const submission = parseWithZod(formData, { schema: PrinterSettingsSchema });
  if (submission.status !== "success") {
    return data({ intent: "settings" as const, result: submission.reply() }, { status: 400 });
  }
  const values = submission.value;
  const placement = placeAfterEdit(printer, values);
  const photo = values.image ? await checkPrinterPhoto(values.image) : null;
  if (!placement || (photo && !photo.ok)) {
    return data(
      {
        intent: "settings" as const,
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
  let saved;
  try {
    saved = await updatePrinter(user, printer.id, {
      name: values.name,
      description: values.description ?? null,
      pricePerGram: values.pricePerGram,
      materials: values.materials,
      isAvailable: values.isAvailable === true,
      placement,
      photo: photo?.ok ? photo : values.removeImage ? null : undefined,
    });
  } catch (error) {
    if (!isAppError(error)) throw error;
    const reply = replyWithError(submission, error);
    return data({ intent: "settings" as const, ...reply.data }, reply.init ?? undefined);
  }
  if (!saved) return redirectWithToast(back, { title: "Failed to update printer settings.", variant: "destructive" });
  return redirectWithToast("/printer-dashboard", { title: "Printer settings updated successfully." });
}

function numberOrUndefined(value: FormDataEntryValue | null): number | undefined {
  if (typeof value !== "string" || value.trim() === "") return undefined;
  return Number(value);
}

export default function EditPrinter() {
  const { printer } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const settingsReply = actionData && "result" in actionData ? actionData : null;
  const inventoryReply = actionData && "key" in actionData ? actionData : null;
  const [form, fields] = useForm({
    id: `printer-settings-${printer.id}`,
    lastResult: settingsReply?.result,
    constraint: getZodConstraint(PrinterSettingsSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PrinterSettingsSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: {
      name: printer.name,
      description: printer.description ?? "",
      location: printer.location,
      pricePerGram: printer.pricePerGram,
      materials: printer.materials,
      latitude: printer.latitude ?? "",
      longitude: printer.longitude ?? "",
      isAvailable: printer.isAvailable ? "on" : undefined,
    },
  });
  const [materialCount, setMaterialCount] = useState(printer.materials.length);
  const saving = useIsPending({ state: "submitting", intent: "settings" });

  return (
    <div className="container-page max-w-3xl py-8">
      <Link to="/printer-dashboard" className="text-sm text-brand-700 hover:underline">
        ← Printer Dashboard
      </Link>
      <h1 className="mt-2 text-2xl font-bold">Printer settings</h1>
      <p className="text-slate-600">
        {printer.name} · {printer.model}
      </p>

      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="card mt-6 space-y-6 p-6">
        <input type="hidden" name="intent" value="settings" />
        {form.errors?.length ? (
          <p className="field-error" role="alert">
            {form.errors[0]}
          </p>
        ) : null}
        <div>
          <label className="label" htmlFor={fields.name.id}>
            Printer name
          </label>
          <input {...getInputProps(fields.name, { type: "text" })} className="input" />
          <FieldError id={fields.name.errorId} errors={fields.name.errors} />
        </div>
        <div>
          <label className="label" htmlFor={fields.description.id}>
            Description
          </label>
          <textarea {...getTextareaProps(fields.description)} className="input min-h-24" />
          <FieldError id={fields.description.errorId} errors={fields.description.errors} />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label className="label" htmlFor={fields.location.id}>
              Location
            </label>
            <input {...getInputProps(fields.location, { type: "text" })} className="input" />
            <FieldError id={fields.location.errorId} errors={fields.location.errors} />
          </div>
          <div>
            <label className="label" htmlFor={fields.pricePerGram.id}>
              Price per gram (USD)
            </label>
            <input {...getInputProps(fields.pricePerGram, { type: "number" })} className="input" step="0.01" min="0.01" />
            <FieldError id={fields.pricePerGram.errorId} errors={fields.pricePerGram.errors} />
          </div>
        </div>
        <details
          className="rounded-md border border-slate-200 p-3"
          open={Boolean(fields.latitude.errors || fields.longitude.errors)}
        >
          <summary className="cursor-pointer text-sm font-medium text-slate-700">Exact coordinates</summary>
          <p className="mt-2 text-xs text-slate-500">
            Change the location and we place the printer again from it; type new coordinates to set them yourself.
          </p>
          <div className="mt-2 grid grid-cols-2 gap-3">
            <div>
              <label className="label" htmlFor={fields.latitude.id}>
                Latitude
              </label>
              <input {...getInputProps(fields.latitude, { type: "number" })} className="input" step="any" />
              <FieldError id={fields.latitude.errorId} errors={fields.latitude.errors} />
            </div>
            <div>
              <label className="label" htmlFor={fields.longitude.id}>
                Longitude
              </label>
              <input {...getInputProps(fields.longitude, { type: "number" })} className="input" step="any" />
              <FieldError id={fields.longitude.errorId} errors={fields.longitude.errors} />
            </div>
          </div>
        </details>
        <MaterialCheckboxes
          field={fields.materials}
          onChange={(event) => {
            const boxes = event.currentTarget.form?.querySelectorAll<HTMLInputElement>(
              `input[name="${fields.materials.name}"]:checked`,
            );
            setMaterialCount(boxes?.length ?? 0);
          }}
        />
        <div className="flex flex-wrap items-center gap-4">
          <PrinterPhoto printer={printer} className="h-20 w-28 rounded-md object-cover" />
          <div className="flex-1">
            <label className="label" htmlFor={fields.image.id}>
              New photo (optional)
            </label>
            <input
              {...getInputProps(fields.image, { type: "file" })}
              accept="image/jpeg,image/png,image/webp"
              className="block max-w-full text-sm"
            />
            <FieldError id={fields.image.errorId} errors={fields.image.errors} />
            {printer.imageUrl.endsWith(DEFAULT_PRINTER_IMAGE) || isPrinterDrawing(printer.imageUrl) ? null : (
              <label className="mt-1 flex items-center gap-2 text-sm text-slate-700">
                <input {...getInputProps(fields.removeImage, { type: "checkbox" })} className="h-4 w-4" />
                Remove the current photo
              </label>
            )}
          </div>
        </div>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input {...getInputProps(fields.isAvailable, { type: "checkbox" })} className="h-4 w-4 rounded border-slate-300" />
          Available for new orders (online)
        </label>
        <div className="flex flex-wrap gap-3">
          <button type="submit" className="btn-primary" disabled={saving || materialCount === 0}>
            {saving ? "Saving..." : "Save Settings"}
          </button>
          <Link to="/printer-dashboard" className="btn-secondary">
            Cancel
          </Link>
        </div>
      </Form>

      <FilamentStock inventory={printer.filamentInventory} materials={printer.materials} reply={inventoryReply} />

      <section className="card mt-8 border-red-200 p-6" aria-labelledby="danger-heading">
        <h2 id="danger-heading" className="text-lg font-semibold text-red-800">
          Delete printer
        </h2>
        <p className="text-sm text-slate-600">
          Removes the printer from the marketplace. Orders in progress must be finished first.
        </p>
        <div className="mt-3">
          <DeletePrinterButton printer={printer} />
        </div>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: () => (
          <div className="container-page max-w-3xl py-16 text-center">
            <h1 className="text-2xl font-bold">Printer not found</h1>
            <p className="mt-2 text-slate-600">This printer doesn't exist, or it isn't one of yours.</p>
            <Link to="/printer-dashboard" className="btn-primary mt-6">
              Back to your printers
            </Link>
          </div>
        ),
      }}
    />
  );
}

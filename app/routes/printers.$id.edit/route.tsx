import { getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/link";
import { useState } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DEFAULT_PRINTER_IMAGE, DeletePrinterButton, isPrinterDrawing, PrinterPhoto } from "~/components/printer-card";
import { CheckboxField } from "~/components/forms";
import { PrinterForm } from "~/components/printer-form";
import { isAppError } from "~/domain/app-error";
import { InventorySchema, PrinterSettingsSchema, StockRowSchema } from "~/domain/printer-form";
import { placeAfterEdit, removeStock, setStock, updatePrinter } from "~/services/printers/owner.server";
import { getPrinterJson } from "~/services/printers/search.server";
import { replyWithError } from "~/utils/app-error.server";
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

export async function action({ request, params }: ActionFunctionArgs) {
  const { user, printer } = await requirePrinterOwner(request, printerId(params));
  const back = `/printers/${printer.id}/edit`;
  const read = await readPrinterForm(request);
  if ("failure" in read) return data({ result: read.failure.result }, { status: read.failure.status });
  const formData = read.formData;
  const intent = String(formData.get("intent") ?? "");

  if (intent === "inventory-remove") {
    const submission = parseWithZod(formData, { schema: StockRowSchema });
    if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
    const row = submission.value;
    try {
      await removeStock(user, printer.id, row);
    } catch (error) {
      if (isAppError(error)) return replyWithError(submission, error);
      throw error;
    }
    return redirectWithToast(`${back}#inventory`, {
      title: "Inventory updated",
      description: `${row.color} ${row.material} removed.`,
    });
  }
  if (intent === "inventory-set") {
    const submission = parseWithZod(formData, { schema: InventorySchema });
    if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
    const { material, color, grams } = submission.value;
    try {
      await setStock(user, printer, { material, color, grams });
    } catch (error) {
      if (isAppError(error)) return replyWithError(submission, error);
      throw error;
    }
    return redirectWithToast(`${back}#inventory`, {
      title: "Inventory updated",
      description: `${color} ${material}: ${grams} g in stock.`,
    });
  }

  const submission = parseWithZod(formData, { schema: PrinterSettingsSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const values = submission.value;
  let saved;
  try {
    saved = await updatePrinter(user, printer.id, {
      name: values.name,
      description: values.description ?? null,
      pricePerGram: values.pricePerGram,
      materials: values.materials,
      isAvailable: values.isAvailable === true,
      placement: placeAfterEdit(printer, values),
      photo: values.image ?? (values.removeImage ? null : undefined),
    });
  } catch (error) {
    if (!isAppError(error)) throw error;
    return replyWithError(submission, error);
  }
  if (!saved) return redirectWithToast(back, { title: "Failed to update printer settings.", variant: "destructive" });
  return redirectWithToast("/printer-dashboard", { title: "Printer settings updated successfully." });
}

/** The settings form and the stock rows post to one action: the refused post's intent and row say whose result it is. */
function splitReply(result: SubmissionResult<string[]> | undefined) {
  const posted = result?.initialValue ?? {};
  if (typeof posted.intent !== "string" || !posted.intent.startsWith("inventory")) {
    return { settingsResult: result, inventoryReply: null };
  }
  const errors = Object.values(result?.error ?? {}).flatMap((messages) => messages ?? []);
  return { settingsResult: undefined, inventoryReply: { key: String(posted.rowKey ?? "new"), errors: errors.slice(0, 1) } };
}

export default function EditPrinter() {
  const { printer } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { settingsResult, inventoryReply } = splitReply(actionData?.result);
  const [form, fields] = useForm({
    id: `printer-settings-${printer.id}`,
    lastResult: settingsResult,
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

      <PrinterForm
        mode="edit"
        form={form}
        fields={fields}
        pending={saving}
        canSubmit={materialCount > 0}
        hidden={<input type="hidden" name="intent" value="settings" />}
        onMaterialsChange={(event) => {
          const boxes = event.currentTarget.form?.querySelectorAll<HTMLInputElement>(
            `input[name="${fields.materials.name}"]:checked`,
          );
          setMaterialCount(boxes?.length ?? 0);
        }}
        currentPhoto={<PrinterPhoto printer={printer} className="h-20 w-28 rounded-md object-cover" />}
        removePhoto={
          printer.imageUrl.endsWith(DEFAULT_PRINTER_IMAGE) || isPrinterDrawing(printer.imageUrl) ? null : (
            <CheckboxField
              labelProps={{
                children: "Remove the current photo",
                className: "mt-1 flex items-center gap-2 text-sm text-slate-700",
              }}
              inputProps={{ ...getInputProps(fields.removeImage, { type: "checkbox" }), className: "h-4 w-4" }}
              errors={fields.removeImage.errors}
            />
          )
        }
      />

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

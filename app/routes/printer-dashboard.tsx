import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/link";
import { z } from "zod";
import { OwnerOrderSections, OwnerStatCards } from "~/components/owner-orders";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { AvailabilitySwitch, DeletePrinterButton, PrinterPhoto } from "~/components/printer-card";
import { QUICK_ADD_INTENT, QuickAddPrinter } from "~/components/quick-add-printer";
import { isAppError } from "~/domain/app-error";
import { ADDRESS_NOT_FOUND, QuickAddPrinterSchema, quickPrinterValues } from "~/domain/printer-form";
import { formatPricePerGram } from "~/domain/pricing";
import { deletePrinter, newPrinterFromForm, setPrinterAvailability } from "~/services/printers/owner.server";
import { listOwnPrinters } from "~/services/printers/search.server";
import { ownerOrderSections } from "~/services/orders/owner-jobs.server";
import { toastOf } from "~/utils/app-error.server";
import { requireUser } from "~/utils/session.server";
import { redirectWithToast } from "~/utils/toast.server";
import { listNewPrinter } from "./printers.server";
import type { User } from "../../db/schema";

const IntentSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("toggle-availability"),
    printerId: z.coerce.number().int().positive(),
    isAvailable: z.enum(["true", "false"]),
  }),
  z.object({ intent: z.literal("delete"), printerId: z.coerce.number().int().positive() }),
]);

export const meta: MetaFunction = () => [{ title: "Printer Dashboard | Printnear" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [printers, orders] = await Promise.all([listOwnPrinters(user.id), ownerOrderSections(user.id)]);
  return { name: user.firstName || user.username, printers, orders };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const formData = await request.formData();
  if (formData.get("intent") === QUICK_ADD_INTENT) return quickAddPrinter(user, formData);
  const parsed = IntentSchema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) throw data({ message: "Unknown action" }, { status: 400 });
  const form = parsed.data;
  if (form.intent === "toggle-availability") {
    const online = form.isAvailable === "true";
    let changed;
    try {
      changed = await setPrinterAvailability(user, form.printerId, online);
    } catch (error) {
      if (!isAppError(error)) throw error;
      return redirectWithToast("/printer-dashboard", toastOf(error, "Failed to update printer status"));
    }
    if (!changed) {
      return redirectWithToast("/printer-dashboard", { title: "Failed to update printer status", variant: "destructive" });
    }
    return redirectWithToast("/printer-dashboard", {
      title: "Status updated",
      description: online ? "Your printer is online and takes new orders." : "Your printer is offline and shows as Busy.",
    });
  }
  try {
    if (await deletePrinter(user, form.printerId)) {
      return redirectWithToast("/printer-dashboard", { title: "Printer deleted successfully." });
    }
    return redirectWithToast("/printer-dashboard", { title: "Failed to delete printer.", variant: "destructive" });
  } catch (error) {
    if (!isAppError(error)) throw error;
    return redirectWithToast("/printer-dashboard", toastOf(error, "Failed to delete printer."));
  }
}

/** The quick add-printer form: the same printer the full form lists, from a model, a spool and an address. */
async function quickAddPrinter(user: User, formData: FormData) {
  const submission = parseWithZod(formData, { schema: QuickAddPrinterSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const values = quickPrinterValues(submission.value);
  return listNewPrinter(user, submission, () =>
    newPrinterFromForm(values, { isAvailable: true, photo: null }, { field: "zip", message: ADDRESS_NOT_FOUND }),
  );
}

export default function PrinterDashboard() {
  const { name, printers, orders } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="container-page py-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold">Printer Dashboard</h1>
          <p className="text-slate-600">Hi {name}, manage your printers, their availability and filament stock.</p>
        </div>
        <Link to="/add-printer" className="btn-primary">
          Add Printer
        </Link>
      </div>

      <dl className="mt-6 grid grid-cols-2 gap-4 lg:grid-cols-4">
        <div className="card p-4">
          <dt className="text-sm text-slate-500">Active Printers</dt>
          <dd className="mt-1 text-2xl font-semibold" data-testid="stat-activePrinters">
            {printers.length}
          </dd>
        </div>
        <OwnerStatCards stats={orders.stats} />
      </dl>

      <OwnerOrderSections data={orders} printers={printers} />

      <section className="mt-8" aria-labelledby="your-printers">
        <div className="flex items-center justify-between">
          <h2 id="your-printers" className="text-xl font-semibold">
            Your Printers
          </h2>
          <Link to="/add-printer" className="btn-secondary">
            Add Printer
          </Link>
        </div>
        {/* a new printer in the list starts the form afresh */}
        <QuickAddPrinter key={printers.length} lastResult={actionData?.result} />
        {printers.length === 0 ? (
          <div className="card mt-4 p-10 text-center text-slate-600">
            <p>You haven't listed a printer yet.</p>
            <Link to="/add-printer" className="btn-primary mt-4">
              Add Printer
            </Link>
          </div>
        ) : (
          <ul className="mt-4 grid gap-4 lg:grid-cols-2">
            {printers.map((printer) => (
              <li key={printer.id} className="card flex flex-col gap-4 p-4 sm:flex-row" data-testid="owner-printer">
                <PrinterPhoto printer={printer} className="h-32 w-full rounded-md object-cover sm:w-40" />
                <div className="flex-1 space-y-2">
                  <div className="flex items-start justify-between gap-2">
                    <div>
                      <h3 className="font-semibold">{printer.name}</h3>
                      <p className="text-sm text-slate-500">
                        {printer.model} · {printer.location}
                      </p>
                    </div>
                    <span
                      className={`badge ${printer.isAvailable ? "bg-green-100 text-green-800" : "bg-slate-200 text-slate-700"}`}
                    >
                      {printer.isAvailable ? "Online" : "Offline"}
                    </span>
                  </div>
                  <p className="text-sm text-slate-600">
                    {formatPricePerGram(printer.ratePerKgCents)} · {printer.buildVolumeX} × {printer.buildVolumeY} ×{" "}
                    {printer.buildVolumeZ} mm · {printer.materials.join(", ")}
                  </p>
                  <div className="text-sm">
                    <p className="font-medium text-slate-700">Filament in stock</p>
                    {printer.filamentInventory.length === 0 ? (
                      <p className="text-slate-500">No filament recorded yet.</p>
                    ) : (
                      <ul className="mt-1 flex flex-wrap gap-1" aria-label={`Filament of ${printer.name}`}>
                        {printer.filamentInventory.map((row) => (
                          <li
                            key={`${row.material}-${row.color}`}
                            className={`badge ${row.inStock ? "bg-slate-100 text-slate-700" : "bg-red-50 text-red-700"}`}
                          >
                            {row.color} {row.material}: {row.grams} g
                          </li>
                        ))}
                      </ul>
                    )}
                  </div>
                  <div className="flex flex-wrap items-center gap-2 pt-1">
                    <AvailabilitySwitch printer={printer} />
                    <Link to={`/printers/${printer.id}/edit`} className="btn-secondary">
                      Edit Settings
                    </Link>
                    <Link to={`/printers/${printer.id}/edit#inventory`} className="btn-secondary">
                      Filament Inventory
                    </Link>
                    <DeletePrinterButton printer={printer} />
                  </div>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

// /submit-print?printerId=&draftId= ("Submit Print Job"): colour, copies, delivery address and instructions
// for the customer's draft at the chosen printer, priced on the server. "Update summary" is a GET of the same
// form, so rates and the total refresh without JavaScript; "Submit Order" posts and goes on to checkout.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData, useSubmit } from "@remix-run/react";
import { Form } from "~/components/form";
import { Link } from "~/components/link";
import { parseWithZod } from "@conform-to/zod";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { CopiesField } from "~/components/copies-field";
import { OrderSummary } from "~/components/order-summary";
import { FailureToast } from "~/components/toaster";
import { isAppError } from "~/domain/app-error";
import { replyWithError } from "~/utils/app-error.server";
import { ErrorList } from "~/components/forms";
import { colorChoices } from "~/domain/materials";
import { formatCents } from "~/domain/money";
import { DELIVERY_METHODS, isDeliveryMethod, type DeliveryMethod } from "~/domain/pricing";
import { addressFieldErrors, CHECK_ADDRESS, formAgain, OrderSchema } from "./submit-print.server";
import { isZip, LOCAL_DELIVERY_RADIUS_MILES } from "~/domain/shipping";
import { getOwnDraft } from "~/services/designs/drafts.server";
import { addressErrorsOf, addressFromForm } from "~/domain/address";
import { checkDeliveryAddress, orderFormAddress } from "~/services/addresses.server";
import { AddressFields, addressValues } from "~/components/address-fields";
import {
  colorsInStock,
  draftWithQuantity,
  getOrderablePrinter,
  NO_COLOR,
  OWN_PRINTER,
  placeOrder,
  priceOrder,
} from "~/services/orders/place-order.server";
import { localDeliveryAvailable, shippingQuote } from "~/services/shipping/rates.server";
import { parseId } from "~/utils/misc";
import { useIsPending } from "~/utils/misc-react";
import { requireUser } from "~/utils/session.server";
import { redirectDocumentWithToast, redirectWithToast } from "~/utils/toast.server";
import { formatGrams } from "~/domain/grams";
import { formatMinutes } from "~/domain/format";

const DELIVERY_LABELS: Record<DeliveryMethod, string> = {
  pickup: "Local Pickup (free)",
  delivery: "Local Delivery ($5.00, within 25 miles)",
  shipping: "USPS Shipping",
};

export const meta: MetaFunction = () => [{ title: "Submit Print Job | Printnear" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const q = new URL(request.url).searchParams;
  const printerId = parseId(q.get("printerId"));
  const draftId = parseId(q.get("draftId"));
  if (!printerId || !draftId) {
    throw await redirectWithToast("/upload", {
      title: "Invalid Request",
      description: "Missing printer or draft information. Redirecting to upload...",
      variant: "destructive",
    });
  }
  const saved = await getOwnDraft(user.id, draftId);
  if (!saved) {
    throw await redirectWithToast("/upload", {
      title: "Missing Draft",
      description: "No draft found. Please start over by uploading your file.",
      variant: "destructive",
    });
  }
  let priceError: string | null = null;
  const askedCopies = q.get("quantity");
  const draft = (() => {
    try {
      return draftWithQuantity(saved, askedCopies === null ? null : Number(askedCopies));
    } catch (error) {
      if (!isAppError(error)) throw error;
      priceError = error.message;
      return saved;
    }
  })();
  const printer = await getOrderablePrinter(printerId);
  if (!printer) {
    throw await redirectWithToast(`/choose-printer?draftId=${draft.id}`, { title: "Printer not found", variant: "destructive" });
  }
  if (printer.ownerId === user.id) {
    throw await redirectWithToast(`/choose-printer?draftId=${draft.id}`, {
      title: "Choose Another Printer",
      description: OWN_PRINTER,
      variant: "destructive",
    });
  }
  const { swatches, color } = colorChoices(colorsInStock(printer, draft), q.get("filamentColor") ?? draft.filamentColor);
  const askedMethod = q.get("deliveryMethod");
  const deliveryMethod: DeliveryMethod = isDeliveryMethod(askedMethod) ? askedMethod : "pickup";
  const { address, savedAddresses } = await orderFormAddress(user.id, (name) => q.get(name), user.zipCode);
  const zip = address.zip.trim().slice(0, 5);
  const service = q.get("shippingService");

  let shippingOptions: Awaited<ReturnType<typeof shippingQuote>> | null = null;
  if (deliveryMethod === "shipping" && isZip(zip)) {
    shippingOptions = await shippingQuote({
      originZip: printer.zip,
      destinationZip: zip,
      weightGrams: draft.estimatedWeightGrams,
    }).catch((error: unknown) => {
      if (!isAppError(error)) throw error;
      priceError = error.message;
      return null;
    });
  }
  const chosenService =
    shippingOptions?.options.find((o) => o.service === service)?.service ?? shippingOptions?.defaultOption?.service ?? null;
  const price = await priceOrder(printer, draft, { method: deliveryMethod, zip, service: chosenService }).catch(
    (error: unknown) => {
      if (!isAppError(error)) throw error;
      priceError ??= error.message;
      return null;
    },
  );
  const pickupPrice = price ?? (await priceOrder(printer, draft, { method: "pickup" }));
  return {
    draft: {
      id: draft.id,
      fileName: draft.fileName,
      fileSize: draft.fileSize,
      material: draft.material,
      weightGrams: draft.estimatedWeightGrams,
      colors: draft.numberOfColors,
      printTimeMinutes: draft.printTimeMinutes,
      quantity: draft.quantity,
      specialInstructions: (q.get("specialInstructions") ?? draft.specialInstructions ?? "").slice(0, 1000),
    },
    printer: { id: printer.id, name: printer.name, location: printer.location, isAvailable: printer.isAvailable },
    colors: swatches,
    color,
    deliveryMethod,
    zip,
    address,
    savedAddresses,
    localDeliveryOk: isZip(zip) ? localDeliveryAvailable(printer.zip, zip) : null,
    shipping: shippingOptions,
    chosenService,
    summary: {
      printCost: pickupPrice.quote.printerProfit,
      platformFee: pickupPrice.quote.platformFee,
      deliveryFee: price?.deliveryFee ?? null,
      total: price?.total ?? null,
    },
    priceError,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  const color = form.get("filamentColor");
  if (typeof color !== "string" || color.trim() === "") {
    return redirectWithToast(formAgain(form), { title: "Missing Information", description: NO_COLOR, variant: "destructive" });
  }
  // the schema reads the posted strings as they are ("" copies is refused as 0, not left out)
  const submission = parseWithZod(form, { schema: OrderSchema, disableAutoCoercion: true });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const deliveryAddress = submission.value.deliveryMethod === "pickup" ? undefined : addressFromForm((name) => form.get(name));
  if (deliveryAddress) {
    const checked = checkDeliveryAddress(deliveryAddress);
    if ("errors" in checked) {
      const result = submission.reply({ formErrors: [CHECK_ADDRESS], fieldErrors: addressFieldErrors(checked.errors) });
      return data({ result }, { status: 400 });
    }
  }
  try {
    const orderId = await placeOrder({ customerId: user.id, ...submission.value, deliveryAddress });
    // a document load: /checkout's policy lets the card provider's script run, this page's does not
    return redirectDocumentWithToast(`/checkout?orderId=${orderId}`, {
      title: "Order Submitted Successfully!",
      description: "Complete the payment to send it to the printer.",
    });
  } catch (error) {
    if (!isAppError(error)) throw error;
    return replyWithError(submission, error);
  }
}

export default function SubmitPrint() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>()?.result;
  const errors = result?.error ?? {};
  const refusal = [errors[""], ...Object.values(errors)].flat().find(Boolean);
  const submit = useSubmit();
  // a refused address comes back as typed (without JavaScript the page is drawn anew)
  const addressErrors = addressErrorsOf(errors);
  const typed = result?.initialValue as { deliveryAddress?: Record<string, string>; deliveryZip?: string } | undefined;
  const refused = Object.keys(addressErrors).length ? { ...typed?.deliveryAddress, zip: typed?.deliveryZip } : null;
  const pending = useIsPending();
  const refresh = (form: HTMLFormElement | null) => {
    if (form) submit(form, { method: "get", replace: true, preventScrollReset: true });
  };
  return (
    <div className="container-page py-8">
      <h1 className="text-2xl font-bold">Submit Print Job</h1>
      <Form
        method="post"
        className="mt-6 grid gap-6 lg:grid-cols-3"
        onChange={(e) => {
          const target = e.target as HTMLInputElement;
          // typing an address refreshes nothing but its ZIP; choosing a saved address fills the fields in
          const typing = target.name === "specialInstructions" || target.name.startsWith("deliveryAddress.");
          if (!typing && (target.name !== "deliveryZip" || /^\d{5}$/.test(target.value))) {
            refresh(e.currentTarget);
          }
        }}
      >
        <input type="hidden" name="printerId" value={d.printer.id} />
        <input type="hidden" name="draftId" value={d.draft.id} />
        <div className="space-y-6 lg:col-span-2">
          <section className="card p-4" aria-labelledby="file-details">
            <h2 id="file-details" className="font-semibold">
              File details
            </h2>
            <p className="mt-2 text-sm text-slate-700">
              {d.draft.fileName} · {(d.draft.fileSize / 1024 / 1024).toFixed(2)} MB · {d.draft.material} ·{" "}
              {formatGrams(d.draft.weightGrams)} g · {d.draft.colors} colour(s) · {formatMinutes(d.draft.printTimeMinutes)}
            </p>
            <CopiesField quantity={d.draft.quantity} errors={errors.quantity} />
          </section>

          <section className="card flex items-center justify-between gap-4 p-4" aria-labelledby="chosen-printer">
            <div>
              <h2 id="chosen-printer" className="font-semibold">
                {d.printer.name}
              </h2>
              <p className="text-sm text-slate-600">{d.printer.location}</p>
              {d.printer.isAvailable ? null : <p className="text-sm text-red-700">This printer is offline right now.</p>}
            </div>
            <Link to={`/choose-printer?draftId=${d.draft.id}`} className="btn-secondary">
              Change Printer
            </Link>
          </section>

          <fieldset className="card p-4">
            <legend className="px-1 font-semibold">Filament colour ({d.draft.material})</legend>
            {d.color ? null : (
              <p className="text-sm text-red-700">
                This printer has no {d.draft.material} in stock for this design. Change printer.
              </p>
            )}
            <div className="mt-2 flex flex-wrap gap-2">
              {d.colors.map((c) => (
                <label
                  key={c.name}
                  className={`flex items-center gap-2 rounded-md border px-3 py-2 text-sm ${c.available ? "cursor-pointer border-slate-300 has-[:checked]:border-brand-600 has-[:checked]:ring-2 has-[:checked]:ring-brand-100" : "cursor-not-allowed border-slate-200 text-slate-400"}`}
                >
                  <input
                    type="radio"
                    name="filamentColor"
                    value={c.name}
                    defaultChecked={c.name === d.color}
                    disabled={!c.available}
                  />
                  <span aria-hidden className="h-4 w-4 rounded-full border border-slate-300" style={{ background: c.swatch }} />
                  {c.name}
                  {c.available ? null : <span className="sr-only">(out of stock)</span>}
                </label>
              ))}
            </div>
            <ErrorList id="filamentColor-error" errors={errors.filamentColor} />
          </fieldset>

          <fieldset className="card grid gap-4 p-4 sm:grid-cols-2">
            <legend className="px-1 font-semibold">Delivery</legend>
            <div>
              <label className="label" htmlFor="deliveryMethod">
                Delivery method
              </label>
              <select id="deliveryMethod" name="deliveryMethod" defaultValue={d.deliveryMethod} className="input">
                {DELIVERY_METHODS.map((m) => (
                  <option key={m} value={m}>
                    {DELIVERY_LABELS[m]}
                  </option>
                ))}
              </select>
            </div>
            {d.deliveryMethod === "pickup" ? null : (
              <div className="sm:col-span-2">
                <AddressFields
                  key={refused ? "refused" : d.address.key}
                  address={refused ? { ...d.address, ...addressValues(refused) } : d.address}
                  zip={refused?.zip ?? d.zip}
                  saved={d.savedAddresses}
                  filledFrom={d.address.filledFrom}
                  errors={addressErrors}
                />
                {d.deliveryMethod === "delivery" && d.localDeliveryOk === false ? (
                  <ErrorList
                    errors={[`Local delivery is only available within ${LOCAL_DELIVERY_RADIUS_MILES} miles of the printer.`]}
                  />
                ) : null}
              </div>
            )}
            {d.deliveryMethod === "shipping" && d.shipping ? (
              <div className="sm:col-span-2">
                <p className="label">Shipping option{d.shipping.estimated ? " (estimated rates)" : ""}</p>
                <div className="space-y-2">
                  {d.shipping.options.map((o) => (
                    <label key={o.service} className="flex items-center gap-2 text-sm">
                      <input
                        type="radio"
                        name="shippingService"
                        value={o.service}
                        defaultChecked={o.service === d.chosenService}
                      />
                      {o.carrier} {o.description}: {formatCents(o.estimatedCost)}
                    </label>
                  ))}
                </div>
              </div>
            ) : null}
            <div className="sm:col-span-2">
              <button type="submit" formMethod="get" className="btn-secondary">
                Update summary
              </button>
            </div>
          </fieldset>

          <div className="card p-4">
            <label className="label" htmlFor="specialInstructions">
              Special instructions
            </label>
            <textarea
              id="specialInstructions"
              name="specialInstructions"
              maxLength={1000}
              rows={3}
              defaultValue={d.draft.specialInstructions}
              className="input"
              placeholder="Anything the printer should know"
            />
          </div>
        </div>

        <aside className="card h-fit space-y-3 p-4">
          <h2 className="font-semibold">Order summary</h2>
          <OrderSummary
            rows={[
              { label: "Print service", cents: d.summary.printCost },
              { label: "Platform fee", cents: d.summary.platformFee },
              { label: "Delivery", cents: d.summary.deliveryFee },
            ]}
            totalCents={d.summary.total}
          />
          {d.priceError ? <p className="text-sm text-red-700">{d.priceError}</p> : null}
          {refusal ? (
            <>
              {/* the refusal is a destructive toast as well; the form keeps every choice made */}
              <FailureToast title="Submission Failed" description={refusal} />
              <p role="alert" className="text-sm text-red-700">
                Submission Failed: {refusal}
              </p>
            </>
          ) : null}
          <button type="submit" className="btn-primary w-full" disabled={pending || !d.color}>
            {pending ? "Submitting…" : "Submit Order"}
          </button>
          <p className="text-xs text-slate-500">Priced at this printer's rate. You pay on the next step.</p>
        </aside>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

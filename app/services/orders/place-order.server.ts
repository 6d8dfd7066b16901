// Placing an order: the customer's own draft becomes a submitted job at the chosen printer, priced
// by the one price engine at that printer's rate plus delivery (re-priced here, never taken from
// the form).
import { and, eq } from "drizzle-orm";
import { filamentInventory, printers, printJobs, type PrintJob } from "../../../db/schema";
import { AppError } from "~/domain/app-error";
import { checkTransition } from "~/domain/job-lifecycle";
import { orderTotal, quotePrice, type DeliveryMethod } from "~/domain/pricing";
import { isZip, LOCAL_DELIVERY_RADIUS_MILES, type ShippingOption } from "~/domain/shipping";
import { getOwnDraft, refigureJob } from "~/services/designs/drafts.server";
import { requireDeliveryAddress } from "~/services/addresses.server";
import { QUANTITY_MESSAGE, QuantitySchema } from "~/domain/design-settings";
import { localDeliveryAvailable, shippingQuote } from "~/services/shipping/rates.server";
import { limitWrite } from "~/services/write-limits.server";
import { getDb } from "~/utils/db.server";
import { reservedGrams } from "./transitions.server";

export const NO_DRAFT = "No draft found. Please start over by uploading your file.";
export const NO_COLOR = "Please select a filament color.";
export const MAX_INSTRUCTIONS = 1000;
export const OWN_PRINTER = "You can't order from your own printer.";

export interface OrderInput {
  customerId: number;
  printerId: number;
  draftId: number;
  filamentColor: string;
  deliveryMethod: DeliveryMethod;
  specialInstructions?: string | null;
  /** the delivery ZIP when no address is given (the address's own ZIP wins) */
  deliveryZip?: string | null;
  shippingService?: string | null;
  /** who receives a shipped or delivered order and where: {name, line1, line2?, city, state, zip, phone?} */
  deliveryAddress?: unknown;
  /** copies; absent keeps the draft's */
  quantity?: number | null;
}

/** The draft as ordered in `quantity` copies (its weight and time follow); AppError on a count outside 1-50. */
export function draftWithQuantity(draft: PrintJob, quantity: number | null | undefined): PrintJob {
  if (quantity === null || quantity === undefined || quantity === draft.quantity) return draft;
  if (!QuantitySchema.safeParse(quantity).success) throw new AppError("invalid", QUANTITY_MESSAGE, { field: "quantity" });
  return { ...draft, quantity, ...refigureJob(draft, { units: draft.units, scalePercent: draft.scalePercent, quantity }) };
}

export async function getOrderablePrinter(printerId: number) {
  const db = await getDb();
  const [printer] = await db.select().from(printers).where(eq(printers.id, printerId)).limit(1);
  if (!printer) return null;
  const stock = await db
    .select({ material: filamentInventory.material, color: filamentInventory.color, grams: filamentInventory.grams })
    .from(filamentInventory)
    .where(eq(filamentInventory.printerId, printerId));
  return { ...printer, stock };
}
export type OrderablePrinter = NonNullable<Awaited<ReturnType<typeof getOrderablePrinter>>>;

/** Colours of this material the printer holds enough of for the draft. */
export function colorsInStock(printer: OrderablePrinter, draft: Pick<PrintJob, "material" | "estimatedWeightGrams">): string[] {
  const need = reservedGrams(draft);
  return printer.stock
    .filter((row) => row.material === draft.material && row.grams >= need && row.grams > 0)
    .map((row) => row.color);
}

export interface OrderPrice {
  quote: ReturnType<typeof quotePrice>;
  deliveryFee: number;
  total: number;
  shipping: ShippingOption | null;
}

/** The order's price at this printer with this delivery; shipping and local delivery are checked here. */
export async function priceOrder(
  printer: OrderablePrinter,
  draft: PrintJob,
  delivery: { method: DeliveryMethod; zip?: string | null; service?: string | null },
): Promise<OrderPrice> {
  const quote = quotePrice({
    weightGrams: Math.max(0, draft.estimatedWeightGrams),
    colors: draft.numberOfColors,
    printTimeMinutes: draft.printTimeMinutes,
    quantity: draft.quantity,
    ratePerKgCents: printer.ratePerKgCents,
  });
  let shipping: ShippingOption | null = null;
  if (delivery.method !== "pickup" && !isZip(delivery.zip)) {
    throw new AppError("invalid", "Enter a 5-digit ZIP code.", { field: "deliveryZip" });
  }
  if (delivery.method === "delivery" && !localDeliveryAvailable(printer.zip, delivery.zip)) {
    throw new AppError(
      "invalid",
      `Local delivery is only available within ${LOCAL_DELIVERY_RADIUS_MILES} miles of the printer.`,
      {
        field: "deliveryZip",
      },
    );
  }
  if (delivery.method === "shipping") {
    const rates = await shippingQuote({
      originZip: printer.zip,
      destinationZip: delivery.zip!,
      weightGrams: draft.estimatedWeightGrams,
    });
    shipping = rates.options.find((o) => o.service === delivery.service) ?? (delivery.service ? null : rates.defaultOption);
    if (!shipping) throw new AppError("invalid", "Choose one of the shipping options.", { field: "shippingService" });
  }
  const total = orderTotal({ quote, deliveryMethod: delivery.method, shippingCents: shipping?.estimatedCost });
  return { quote, deliveryFee: total.deliveryFee, total: total.total, shipping };
}

/** Turns the customer's draft into a submitted order; returns the order id. */
export async function placeOrder(input: OrderInput): Promise<number> {
  const saved = await getOwnDraft(input.customerId, input.draftId);
  if (!saved) throw new AppError("not_found", NO_DRAFT);
  const draft = draftWithQuantity(saved, input.quantity);
  const printer = await getOrderablePrinter(input.printerId);
  if (!printer) throw new AppError("not_found", "Printer not found.");
  // an owner as their own customer could pay, then refund, money to themselves
  if (printer.ownerId === input.customerId) throw new AppError("forbidden", OWN_PRINTER, { field: "printerId" });
  if (!printer.isAvailable) throw new AppError("conflict", "This printer is not taking orders right now. Please choose another.");
  if (!input.filamentColor?.trim()) throw new AppError("invalid", NO_COLOR, { field: "filamentColor" });
  if (!printer.materials.includes(draft.material)) {
    throw new AppError("invalid", `This printer doesn't print ${draft.material}.`);
  }
  if (!colorsInStock(printer, draft).includes(input.filamentColor)) {
    throw new AppError("invalid", `Not enough ${input.filamentColor} ${draft.material} in stock`, { field: "filamentColor" });
  }
  const instructions = input.specialInstructions?.trim() ?? "";
  if (instructions.length > MAX_INSTRUCTIONS) {
    throw new AppError("too_large", `Special instructions can be at most ${MAX_INSTRUCTIONS} characters.`, {
      field: "specialInstructions",
    });
  }
  // the lifecycle table's draft → submitted row is the one authority on placing an order
  const check = checkTransition(draft.status, "customer", "place", { deliveryMethod: input.deliveryMethod });
  if (!check.ok) throw new AppError("conflict", "This draft has already been ordered.");
  const { transition } = check;
  const address = input.deliveryMethod === "pickup" ? null : requireDeliveryAddress(givenAddress(input));
  await limitWrite(input.customerId, "order");
  const price = await priceOrder(printer, draft, {
    method: input.deliveryMethod,
    zip: address?.zip,
    service: input.shippingService,
  });
  const now = new Date();
  const db = await getDb();
  const result = await db
    .update(printJobs)
    .set({
      status: transition.to,
      [transition.stamp]: now,
      printerId: printer.id,
      filamentColor: input.filamentColor,
      deliveryMethod: input.deliveryMethod,
      deliveryZip: address?.zip ?? null,
      deliveryAddress: address,
      shippingCarrier: price.shipping?.carrier ?? null,
      shippingService: price.shipping?.service ?? null,
      specialInstructions: instructions || null,
      quantity: draft.quantity,
      estimatedWeightGrams: draft.estimatedWeightGrams,
      printTimeMinutes: draft.printTimeMinutes,
      totalCostCents: price.quote.customerPays,
      printerProfitCents: price.quote.printerProfit,
      platformFeeCents: price.quote.platformFee,
      deliveryFeeCents: price.deliveryFee,
      amountDueCents: price.total,
      updatedAt: now,
    })
    .where(and(eq(printJobs.id, draft.id), eq(printJobs.customerId, input.customerId), eq(printJobs.status, transition.from)));
  if (result.rowsAffected !== 1) throw new AppError("conflict", "This draft has already been ordered.");
  return draft.id;
}

/** The order's address as given, its ZIP taken from deliveryZip when the address has none. */
export function givenAddress(input: OrderInput): unknown {
  const given = input.deliveryAddress;
  if (given === undefined || given === null) return given;
  if (typeof given !== "object" || Array.isArray(given)) return {};
  const zip = (given as { zip?: unknown }).zip;
  return zip === undefined || zip === null || zip === "" ? { ...given, zip: input.deliveryZip ?? undefined } : given;
}

// Helpers for order tests: an owner with a printer and filament, a customer with a draft.
import { filamentInventory, printJobs } from "../../db/schema";
import { payWithTestCard } from "../../app/services/orders/payment-flows.server";
import { placeOrder } from "../../app/services/orders/place-order.server";
import { transitionJob } from "../../app/services/orders/transitions.server";
import { getDb } from "../../app/utils/db.server";
import { createTestPrinter } from "./jobs";
import { createTestUser } from "./requests";

export async function createOwnerWithPrinter(options: { grams?: number; zip?: string; ratePerKgCents?: number } = {}) {
  const owner = await createTestUser({ userType: "printer_owner" });
  const printer = await createTestPrinter(owner!.id, {
    name: `Printer of ${owner!.username}`,
    materials: ["PLA", "PETG"],
    ratePerKgCents: options.ratePerKgCents ?? 12000,
    location: "Berthoud, CO 80513",
    city: "Berthoud",
    state: "CO",
    zip: options.zip ?? "80513",
    latitude: 40.3083,
    longitude: -105.0811,
  });
  const db = await getDb();
  await db.insert(filamentInventory).values([
    { printerId: printer!.id, material: "PLA", color: "Red", grams: options.grams ?? 1000 },
    { printerId: printer!.id, material: "PLA", color: "Black", grams: 1000 },
  ]);
  return { owner: owner!, printer: printer! };
}

export async function createDraft(customerId: number, overrides: Partial<typeof printJobs.$inferInsert> = {}) {
  const db = await getDb();
  const [job] = await db
    .insert(printJobs)
    .values({
      customerId,
      fileName: "bracket.stl",
      fileSize: 1234,
      fileFormat: "stl",
      material: "PLA",
      estimatedWeightGrams: 40,
      printTimeMinutes: 90,
      ...overrides,
    })
    .returning();
  return job!;
}

/** An owner with a printer and a customer whose draft is placed there as a red pickup order (not yet paid). */
export async function placeTestOrder(options: { grams?: number; weight?: number } = {}) {
  const { owner, printer } = await createOwnerWithPrinter({ grams: options.grams });
  const customer = (await createTestUser())!;
  const draft = await createDraft(customer.id, { estimatedWeightGrams: options.weight ?? 40 });
  const jobId = await placeOrder({
    customerId: customer.id,
    printerId: printer.id,
    draftId: draft.id,
    filamentColor: "Red",
    deliveryMethod: "pickup",
  });
  return { owner, printer, customer, jobId };
}

/** The owner's steps from a paid order to one picked up. */
export const TO_PICKED_UP = ["accept", "start_printing", "complete", "ready_for_pickup", "mark_picked_up"] as const;

/** A pickup order of this owner's printer by a new customer, paid with the test card and moved through these owner steps. */
export async function paidOrderAt(
  owner: { id: number },
  printerId: number,
  fileName: string,
  steps: readonly (typeof TO_PICKED_UP)[number][] = TO_PICKED_UP,
) {
  const customer = (await createTestUser())!;
  const draft = await createDraft(customer.id, { fileName });
  const jobId = await placeOrder({
    customerId: customer.id,
    printerId,
    draftId: draft.id,
    filamentColor: "Red",
    deliveryMethod: "pickup",
  });
  await payWithTestCard(customer.id, jobId, { cardNumber: "4242424242424242", expiry: "12/34", cvc: "123", name: "Casey" });
  for (const action of steps) await transitionJob({ jobId, by: { userId: owner.id }, action });
  return jobId;
}

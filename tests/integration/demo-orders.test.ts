// The demo seed's orders: every status, pickup, local delivery and shipping, each priced as an
// order placed today would be (the price engine, the flat local-delivery fee, the rate table).
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { addresses, printers, printJobs, users } from "../../db/schema";
import { addressOf, checkDeliveryAddress } from "../../app/services/addresses.server";
import { seedDatabase } from "../../db/seed";
import { JOB_STATUSES } from "../../app/domain/job-status";
import { LOCAL_DELIVERY_FEE_CENTS, quotePrice } from "../../app/domain/pricing";
import { tableShippingQuote } from "../../app/domain/shipping";
import { localDeliveryAvailable, milesBetweenZips } from "../../app/services/shipping/rates.server";
import { getDb } from "../../app/utils/db.server";

async function seededOrders() {
  const db = await getDb();
  return db
    .select({ job: printJobs, printerZip: printers.zip, rate: printers.ratePerKgCents })
    .from(printJobs)
    .leftJoin(printers, eq(printers.id, printJobs.printerId));
}

describe("demo orders", () => {
  beforeAll(async () => {
    await seedDatabase(await getDb(), { log: () => {} });
  });

  it("hold every status", async () => {
    const statuses = new Set((await seededOrders()).map((o) => o.job.status));
    expect([...statuses].sort()).toEqual([...JOB_STATUSES].sort());
  });

  it("include a local-delivery order within reach of its printer, at the flat fee", async () => {
    const local = (await seededOrders()).filter((o) => o.job.deliveryMethod === "delivery");
    expect(local.length).toBeGreaterThan(0);
    for (const { job, printerZip } of local) {
      expect(localDeliveryAvailable(printerZip, job.deliveryZip)).toBe(true);
      expect(job.deliveryFeeCents).toBe(LOCAL_DELIVERY_FEE_CENTS);
      expect(job.amountDueCents).toBe(job.totalCostCents + LOCAL_DELIVERY_FEE_CENTS);
    }
  });

  it("charge shipping orders the rate table's price for their service, weight and distance", async () => {
    const shipped = (await seededOrders()).filter((o) => o.job.deliveryMethod === "shipping");
    expect(shipped.length).toBeGreaterThan(0);
    for (const { job, printerZip } of shipped) {
      const miles = milesBetweenZips(printerZip, job.deliveryZip);
      expect(miles, job.fileName).not.toBeNull();
      const option = tableShippingQuote(job.estimatedWeightGrams, miles!).options.find((o) => o.service === job.shippingService);
      expect(option, job.fileName).toBeDefined();
      expect(job.deliveryFeeCents, job.fileName).toBe(option!.estimatedCost);
      expect(job.amountDueCents, job.fileName).toBe(job.totalCostCents + option!.estimatedCost);
    }
  });

  it("price every placed order at its printer's rate", async () => {
    for (const { job, rate } of await seededOrders()) {
      if (job.status === "draft") continue;
      const quote = quotePrice({
        weightGrams: job.estimatedWeightGrams,
        printTimeMinutes: job.printTimeMinutes,
        quantity: job.quantity,
        ratePerKgCents: rate!,
      });
      expect(job.totalCostCents, job.fileName).toBe(quote.customerPays);
    }
  });

  it("include orders of several copies", async () => {
    const copies = (await seededOrders()).filter(({ job }) => job.quantity > 1).map(({ job }) => [job.fileName, job.quantity]);
    expect(copies).toEqual(
      expect.arrayContaining([
        ["cable-clip.stl", 4],
        ["name-tag.obj", 10],
      ]),
    );
  });

  it("go to the customer's ZIP", async () => {
    const db = await getDb();
    const [casey] = await db.select().from(users).where(eq(users.email, "casey@printnear.test"));
    for (const { job } of await seededOrders()) {
      if (job.deliveryMethod !== "pickup") expect(job.deliveryZip).toBe(casey!.zipCode);
    }
  });

  it("carry a copy of the customer's default address when delivered or shipped, and none for pickup", async () => {
    const db = await getDb();
    const [casey] = await db.select().from(users).where(eq(users.email, "casey@printnear.test"));
    const book = await db.select().from(addresses).where(eq(addresses.userId, casey!.id));
    const home = book.find((a) => a.isDefault)!;
    expect(book.length).toBeGreaterThan(1);
    expect(checkDeliveryAddress(addressOf(home))).toEqual({ address: addressOf(home) });
    for (const { job } of await seededOrders()) {
      if (job.status === "draft") continue;
      expect(job.deliveryAddress, job.fileName).toEqual(job.deliveryMethod === "pickup" ? null : addressOf(home));
    }
  });
});

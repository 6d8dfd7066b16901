// Queries the signed-in pages run on every view are built once with placeholders (decision 036): where a
// placeholder stands in a LIMIT or OFFSET, or one built query serves several fixed lists, the answers are
// those of the query built anew each time.
import { beforeAll, describe, expect, it } from "vitest";
import { payments } from "../../db/schema";
import { seedDatabase } from "../../db/seed";
import { MODEL_SORTS } from "../../app/domain/models";
import { listCatalogueModels, listFeaturedModels } from "../../app/services/models/lists.server";
import { listOwnerJobs } from "../../app/services/orders/owner-jobs.server";
import { paymentOfJob } from "../../app/services/payments/records.server";
import { getDb } from "../../app/utils/db.server";
import { createTestJob, createTestPrinter } from "../setup/jobs";
import { createTestUser } from "../setup/requests";

beforeAll(async () => {
  await seedDatabase(await getDb(), { log: () => {} });
});

describe("the catalogue without a search", () => {
  it("pages each sort by its limit and offset", async () => {
    for (const { id: sort } of MODEL_SORTS) {
      const all = await listCatalogueModels({ sort, pageSize: 6 });
      expect(all.models.length, sort).toBe(6);
      const first = await listCatalogueModels({ sort, pageSize: 3, page: 1 });
      const second = await listCatalogueModels({ sort, pageSize: 3, page: 2 });
      expect(
        [...first.models, ...second.models].map((m) => m.id),
        sort,
      ).toEqual(all.models.map((m) => m.id));
      expect(second).toMatchObject({ page: 2, total: all.total, pageCount: Math.ceil(all.total / 3) });
    }
  });

  it("answers the featured carousel up to the limit asked", async () => {
    const four = await listFeaturedModels(4);
    expect(four).toHaveLength(4);
    expect(await listFeaturedModels(2)).toEqual(four.slice(0, 2));
  });
});

describe("one built query per fixed list", () => {
  it("finds the job's newest payment in the states asked, each list its own", async () => {
    const customer = await createTestUser();
    const job = await createTestJob(customer.id, null, "confirmed");
    const db = await getDb();
    const row = (status: "captured" | "authorized", n: number) => ({
      jobId: job.id,
      provider: "test" as const,
      providerPaymentId: `pi_prepared_${job.id}_${n}`,
      amountCents: 1000 + n,
      status,
    });
    await db.insert(payments).values([row("authorized", 1), row("captured", 2), row("authorized", 3)]);
    expect((await paymentOfJob(job.id, ["captured", "refunded"]))?.amountCents).toBe(1002);
    expect((await paymentOfJob(job.id, ["authorized"]))?.amountCents).toBe(1003);
    expect((await paymentOfJob(job.id, ["authorized", "captured"]))?.amountCents).toBe(1003);
    expect(await paymentOfJob(job.id, ["requires_payment"])).toBeNull();
  });

  it("lists an owner's jobs in full as the filtered lists see them", async () => {
    const owner = await createTestUser({ userType: "printer_owner" });
    const customer = await createTestUser();
    const first = await createTestPrinter(owner.id);
    const second = await createTestPrinter(owner.id);
    await createTestJob(customer.id, first.id, "confirmed");
    await createTestJob(customer.id, second.id, "printing");
    await createTestJob(customer.id, second.id, "submitted");
    const all = await listOwnerJobs(owner.id);
    expect(all.map((j) => j.status)).toEqual(["confirmed", "printing"]);
    expect(all.map((j) => j.printerId)).toEqual([first.id, second.id]);
    expect(await listOwnerJobs(owner.id, { printerId: second.id })).toEqual(all.slice(1));
  });
});

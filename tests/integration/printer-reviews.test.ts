import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { printers } from "../../db/schema";
import { isAppError } from "~/domain/app-error";
import { RATING_DECIMALS, REVIEW_NOT_YET, REVIEW_OWN_PRINTER } from "~/domain/reviews";
import { listPrinterReviews, saveReview } from "~/services/printer-reviews.server";
import { getDb } from "~/utils/db.server";
import { action as reviewAction, loader as reviewPage } from "~/routes/jobs.$id.review";
import { loader as printerPage } from "~/routes/printers.$id._index";
import { createTestJob, createTestPrinter } from "../setup/jobs";
import { args, createTestUser, formRequest, getRequest, run, sessionCookieFor } from "../setup/requests";

let ownerId: number;
let printerId: number;

async function code(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  return isAppError(error) ? error.code : error;
}

async function printerRow() {
  const db = await getDb();
  const [row] = await db.select().from(printers).where(eq(printers.id, printerId));
  return row;
}

beforeAll(async () => {
  ownerId = (await createTestUser({ firstName: "Olga" })).id;
  printerId = (await createTestPrinter(ownerId, { name: "Olga's Bambu" })).id;
});

test("the stored rating is the mean of the reviews to RATING_DECIMALS places", async () => {
  const owner = await createTestUser();
  const printer = await createTestPrinter(owner.id, { name: "Three reviews" });
  for (const rating of [5, 4, 4]) {
    const customer = await createTestUser();
    const job = await createTestJob(customer.id, printer.id, "picked_up");
    await saveReview({ jobId: job.id, customerId: customer.id, rating });
  }
  const db = await getDb();
  const [row] = await db.select().from(printers).where(eq(printers.id, printer.id));
  expect(RATING_DECIMALS).toBe(2);
  expect(row).toMatchObject({ rating: 4.33, totalReviews: 3 });
});

describe("printer reviews", () => {
  test("only after pickup or shipping, only by the job's customer, never one's own printer", async () => {
    const customer = await createTestUser();
    const stranger = await createTestUser();
    for (const status of [
      "confirmed",
      "accepted",
      "printing",
      "completed",
      "ready_for_pickup",
      "ready_for_shipping",
      "cancelled",
    ] as const) {
      const job = await createTestJob(customer.id, printerId, status);
      const refused = await saveReview({ jobId: job.id, customerId: customer.id, rating: 5 }).catch((e: unknown) => e);
      expect(isAppError(refused) && refused.code, status).toBe("conflict");
      expect(isAppError(refused) && refused.message).toBe(REVIEW_NOT_YET);
    }
    const delivered = await createTestJob(customer.id, printerId, "picked_up");
    expect(await code(saveReview({ jobId: delivered.id, customerId: stranger.id, rating: 5 }))).toBe("not_found");
    const ownJob = await createTestJob(ownerId, printerId, "shipped");
    const own = await saveReview({ jobId: ownJob.id, customerId: ownerId, rating: 5 }).catch((e: unknown) => e);
    expect(isAppError(own) && own.code).toBe("forbidden");
    expect(isAppError(own) && own.message).toBe(REVIEW_OWN_PRINTER);
    for (const rating of [0, 6, 2.5, "x"]) {
      expect(await code(saveReview({ jobId: delivered.id, customerId: customer.id, rating }))).toBe("invalid");
    }
    expect((await printerRow()).totalReviews).toBe(0);
    expect((await printerRow()).rating).toBeNull();
  });

  test("once per job (a second save edits it); the printer's rating is the mean with the count", async () => {
    const ann = await createTestUser({ firstName: "Ann" });
    const ben = await createTestUser({ firstName: "Ben" });
    const annJob = await createTestJob(ann.id, printerId, "picked_up");
    const benJob = await createTestJob(ben.id, printerId, "shipped");

    const first = await saveReview({ jobId: annJob.id, customerId: ann.id, rating: 5, review: "  Lovely print  " });
    expect(first.edited).toBe(false);
    expect(await printerRow()).toMatchObject({ rating: 5, totalReviews: 1 });

    await saveReview({ jobId: benJob.id, customerId: ben.id, rating: 2 });
    expect(await printerRow()).toMatchObject({ rating: 3.5, totalReviews: 2 });

    const edited = await saveReview({ jobId: annJob.id, customerId: ann.id, rating: 3, review: "" });
    expect(edited.edited).toBe(true);
    expect(await printerRow()).toMatchObject({ rating: 2.5, totalReviews: 2 });

    const reviews = await listPrinterReviews(printerId);
    expect(reviews).toHaveLength(2);
    expect(reviews.find((r) => r.customerName === "Ann")).toMatchObject({ rating: 3, review: null });
  });

  test("the review page posts a review and the public printer page shows it", async () => {
    const carl = await createTestUser({ firstName: "Carl" });
    const cookie = await sessionCookieFor(carl.id);
    const job = await createTestJob(carl.id, printerId, "picked_up");
    const url = `/jobs/${job.id}/review`;
    expect((await run(() => reviewPage(args(getRequest(url, cookie), { id: String(job.id) })))).status).toBe(200);
    const other = await sessionCookieFor((await createTestUser()).id);
    expect((await run(() => reviewPage(args(getRequest(url, other), { id: String(job.id) })))).status).toBe(404);

    const bad = await run(() => reviewAction(args(formRequest(url, { rating: "9" }, { cookie }), { id: String(job.id) })));
    expect(bad.status).toBe(400);
    const saved = await run(() =>
      reviewAction(args(formRequest(url, { rating: "4", review: "Quick and tidy" }, { cookie }), { id: String(job.id) })),
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe(`/printers/${printerId}#reviews`);

    const page = (await (
      await run(() => printerPage(args(getRequest(`/printers/${printerId}`), { id: String(printerId) })))
    ).json()) as {
      printer: { name: string; ownerFirstName: string; rating: number; totalReviews: number };
      reviews: Array<{ review: string | null; customerName: string }>;
    };
    expect(page.printer).toMatchObject({ name: "Olga's Bambu", ownerFirstName: "Olga", totalReviews: 3 });
    expect(page.printer.rating).toBeCloseTo((3 + 2 + 4) / 3, 2);
    expect(page.reviews[0]).toMatchObject({ review: "Quick and tidy", customerName: "Carl" });
    expect((await run(() => printerPage(args(getRequest(`/printers/999999`), { id: "999999" })))).status).toBe(404);
  });
});

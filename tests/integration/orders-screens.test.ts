// The order screens through real Requests: every stocked colour can be ordered (Natural too), a
// missing colour is the Missing Information toast, the owner's Download 3D File answers the file or
// comes back with Download Failed, and the confirmation page says "paid" only for a paid order.
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, test } from "vitest";
import { filamentInventory, printers, printJobs } from "../../db/schema";
import type { JobStatus } from "../../app/domain/job-status";
import { loader as apiDownload } from "../../app/routes/api.print-jobs.$id.download";
import { loader as pageDownload } from "../../app/routes/order.$id_.download";
import { loader as confirmationPage } from "../../app/routes/order-confirmation";
import { action as submitPrintAction, loader as submitPrintPage } from "../../app/routes/submit-print";
import { getStorage, newStorageKey } from "../../app/services/storage.server";
import { getDb } from "../../app/utils/db.server";
import { createDraft, createOwnerWithPrinter } from "../setup/orders";
import { args, createTestUser, flashedToast, formRequest, getRequest, run, sessionCookieFor } from "../setup/requests";
import { jobRow } from "../setup/jobs";

beforeEach(() => {
  delete process.env.STRIPE_SECRET_KEY;
});

/** A printer that stocks only Natural Nylon (as the demo Fort Collins Fab Lab), and a customer's Nylon draft. */
async function naturalNylonSetup() {
  const { owner, printer } = await createOwnerWithPrinter();
  const db = await getDb();
  await db
    .update(printers)
    .set({ materials: ["Nylon"] })
    .where(eq(printers.id, printer.id));
  await db.delete(filamentInventory).where(eq(filamentInventory.printerId, printer.id));
  await db.insert(filamentInventory).values({ printerId: printer.id, material: "Nylon", color: "Natural", grams: 750 });
  const customer = (await createTestUser())!;
  const draft = await createDraft(customer.id, { material: "Nylon" });
  return { owner, printer, customer, draft, customerCookie: await sessionCookieFor(customer.id) };
}

describe("submit print job", () => {
  test("a printer stocking only Natural Nylon offers Natural, selected, and the Natural order is placed", async () => {
    const s = await naturalNylonSetup();
    const url = `/submit-print?printerId=${s.printer.id}&draftId=${s.draft.id}`;
    const page = await run(() => submitPrintPage(args(getRequest(url, s.customerCookie))));
    expect(page.status).toBe(200);
    const d = (await page.json()) as { color: string | null; colors: { name: string; available: boolean }[] };
    expect(d.color).toBe("Natural");
    expect(d.colors.find((c) => c.name === "Natural")).toEqual(expect.objectContaining({ available: true }));
    expect(d.colors.filter((c) => c.available).map((c) => c.name)).toEqual(["Natural"]);

    const placed = await run(() =>
      submitPrintAction(
        args(
          formRequest(
            url,
            {
              printerId: String(s.printer.id),
              draftId: String(s.draft.id),
              filamentColor: d.color!,
              deliveryMethod: "pickup",
            },
            { cookie: s.customerCookie },
          ),
        ),
      ),
    );
    expect(placed.status).toBe(302);
    expect(placed.headers.get("location")).toBe(`/checkout?orderId=${s.draft.id}`);
    expect((await flashedToast(placed))?.title).toBe("Order Submitted Successfully!");
    const job = await jobRow(s.draft.id);
    expect([job.status, job.material, job.filamentColor]).toEqual(["submitted", "Nylon", "Natural"]);
  });

  test.each([
    ["no colour", {}],
    ["a blank colour", { filamentColor: "  " }],
  ])("%s is the Missing Information toast, back on the form with the choices kept", async (_, colorField) => {
    const s = await naturalNylonSetup();
    const res = await run(() =>
      submitPrintAction(
        args(
          formRequest(
            `/submit-print?printerId=${s.printer.id}&draftId=${s.draft.id}`,
            {
              printerId: String(s.printer.id),
              draftId: String(s.draft.id),
              deliveryMethod: "delivery",
              deliveryZip: "80537",
              specialInstructions: "Matte side up",
              ...colorField,
            },
            { cookie: s.customerCookie },
          ),
        ),
      ),
    );
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get("location")!, "http://localhost");
    expect(back.pathname).toBe("/submit-print");
    expect(Object.fromEntries(back.searchParams)).toEqual({
      printerId: String(s.printer.id),
      draftId: String(s.draft.id),
      deliveryMethod: "delivery",
      deliveryZip: "80537",
      specialInstructions: "Matte side up",
    });
    expect(await flashedToast(res)).toEqual({
      title: "Missing Information",
      description: "Please select a filament color.",
      variant: "destructive",
    });
    expect((await jobRow(s.draft.id)).status).toBe("draft");
  });
});

describe("Download 3D File", () => {
  async function orderWithFile(stored: boolean) {
    const { owner, printer } = await createOwnerWithPrinter();
    const customer = (await createTestUser())!;
    let fileKey: string | null = null;
    if (stored) {
      fileKey = newStorageKey("designs", "stl");
      await getStorage().set(fileKey, new File(["solid cube\nendsolid cube\n"], "cube.stl"));
    }
    const job = await createDraft(customer.id, { status: "accepted", printerId: printer.id, fileKey, fileName: "cube.stl" });
    return {
      job,
      ownerCookie: await sessionCookieFor(owner.id),
      customerCookie: await sessionCookieFor(customer.id),
    };
  }
  const download = (id: number, cookie: string) =>
    run(() => pageDownload(args(getRequest(`/order/${id}/download`, cookie), { id: String(id) })));

  test("the owner gets the file as an attachment", async () => {
    const o = await orderWithFile(true);
    const res = await download(o.job.id, o.ownerCookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="cube.stl"');
    expect(await res.text()).toContain("solid cube");
  });

  test("a file no longer stored, or a customer asking, goes back to the order page with Download Failed", async () => {
    const o = await orderWithFile(false);
    const missing = await download(o.job.id, o.ownerCookie);
    expect([missing.status, missing.headers.get("location")]).toEqual([302, `/order/${o.job.id}`]);
    expect(await flashedToast(missing)).toEqual({
      title: "Download Failed",
      description: "The design file is no longer stored.",
      variant: "destructive",
    });

    const asCustomer = await download(o.job.id, o.customerCookie);
    expect([asCustomer.status, asCustomer.headers.get("location")]).toEqual([302, `/order/${o.job.id}`]);
    expect((await flashedToast(asCustomer))?.title).toBe("Download Failed");
  });

  test("the JSON API keeps answering JSON", async () => {
    const o = await orderWithFile(false);
    const res = await run(() =>
      apiDownload(args(getRequest(`/api/print-jobs/${o.job.id}/download`, o.ownerCookie), { id: String(o.job.id) })),
    );
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: "The design file is no longer stored." });
    const forbidden = await run(() =>
      apiDownload(args(getRequest(`/api/print-jobs/${o.job.id}/download`, o.customerCookie), { id: String(o.job.id) })),
    );
    expect(forbidden.status).toBe(403);
  });
});

describe("order confirmation", () => {
  async function confirmation(status: JobStatus, delivery: Partial<typeof printJobs.$inferInsert>) {
    const { printer } = await createOwnerWithPrinter();
    const customer = (await createTestUser())!;
    const job = await createDraft(customer.id, {
      status,
      printerId: printer.id,
      printerProfitCents: 480,
      platformFeeCents: 100,
      amountDueCents: 580 + (delivery.deliveryFeeCents ?? 0),
      ...delivery,
    });
    const cookie = await sessionCookieFor(customer.id);
    const res = await run(() => confirmationPage(args(getRequest(`/order-confirmation?orderId=${job.id}`, cookie))));
    expect(res.status).toBe(200);
    return (await res.json()) as {
      paid: boolean;
      status: string;
      summary: { delivery: { label: string; cents: number; free: boolean }; total: number };
    };
  }

  test.each([
    ["pickup", { deliveryMethod: "pickup" as const }, { label: "Local Pickup", cents: 0, free: true }],
    [
      "local delivery",
      { deliveryMethod: "delivery" as const, deliveryZip: "80537", deliveryFeeCents: 500 },
      { label: "Local Delivery", cents: 500, free: false },
    ],
    [
      "shipping",
      {
        deliveryMethod: "shipping" as const,
        deliveryZip: "10001",
        shippingService: "usps_ground_advantage",
        deliveryFeeCents: 890,
      },
      { label: "USPS Shipping (Ground Advantage)", cents: 890, free: false },
    ],
  ])("a paid %s order shows its delivery line", async (_, delivery, line) => {
    const d = await confirmation("confirmed", delivery);
    expect(d.paid).toBe(true);
    expect(d.summary.delivery).toEqual(line);
    expect(d.summary.total).toBe(580 + line.cents);
  });

  test.each([
    ["submitted", false],
    ["confirmed", true],
    ["accepted", true],
    ["picked_up", true],
    ["cancelled", false],
    ["rejected", false],
  ] as const)("a %s order is paid: %s", async (status, paid) => {
    const d = await confirmation(status, { deliveryMethod: "pickup" });
    expect([d.status, d.paid]).toEqual([status, paid]);
  });
});

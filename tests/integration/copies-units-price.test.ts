// Copies, file units and scale, and one price for a draft on every page (decision 038): the pages without
// JavaScript and the JSON API, against a real database, including the refusals.
import { desc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { filamentInventory, notifications, printJobs } from "../../db/schema";
import type { DesignAnalysis } from "../../app/domain/design-settings";
import { priceRangeText } from "../../app/domain/price-range";
import { quotePrice } from "../../app/domain/pricing";
import { action as uploadAction, loader as uploadLoader } from "../../app/routes/upload/route";
import { loader as savedPrintsLoader } from "../../app/routes/saved-prints";
import { loader as dashboardLoader } from "../../app/routes/dashboard";
import { loader as choosePrinterLoader } from "../../app/routes/choose-printer";
import { action as submitPrintAction, loader as submitPrintLoader } from "../../app/routes/submit-print";
import { action as saveDraftAction } from "../../app/routes/api.save-draft";
import { action as draftAction, loader as draftLoader } from "../../app/routes/api.drafts.$id";
import { action as submitOrderAction } from "../../app/routes/api.submit-order";
import { loader as printJobLoader } from "../../app/routes/api.print-jobs.$id";
import { loader as printerPageLoader } from "../../app/routes/printers.$id._index";
import { payWithTestCard } from "../../app/services/orders/payment-flows.server";
import { transitionJob } from "../../app/services/orders/transitions.server";
import { getDb } from "../../app/utils/db.server";
import { fileOf, multipartRequest } from "../fixtures/designs/helpers";
import { createTestJob, createTestPrinter, jobRow } from "../setup/jobs";
import { args, createTestUser, formRequest, getRequest, jsonRequest, run, sessionCookieFor } from "../setup/requests";

const BRACKET_INCH = "tests/fixtures/designs/bracket-2x1x0.5-inch.stl";
const CUBE_STL = "tests/fixtures/models/trimesh_20mm-xyz-cube.stl";
const CARD = { cardNumber: "4242424242424242", expiry: "12/34", cvc: "123", name: "Casey" };

let cookie: string;
let customerId: number;
let ownerId: number;
let blackPrinterId: number;

beforeAll(async () => {
  const customer = (await createTestUser())!;
  customerId = customer.id;
  cookie = await sessionCookieFor(customer.id);
  const owner = (await createTestUser({ userType: "printer_owner" }))!;
  ownerId = owner.id;
  const db = await getDb();
  const volume = { buildVolumeX: 256, buildVolumeY: 256, buildVolumeZ: 256, fitSmall: 256, fitMid: 256, fitLarge: 256 };
  // the cheaper printer stocks PETG Red only: a range for PETG Black must not count it
  const red = (await createTestPrinter(owner.id, { name: "Red Only", materials: ["PETG"], ratePerKgCents: 5000, ...volume }))!;
  const black = (await createTestPrinter(owner.id, {
    name: "Black Stock",
    materials: ["PETG"],
    ratePerKgCents: 9000,
    ...volume,
  }))!;
  blackPrinterId = black.id;
  await db.insert(filamentInventory).values([
    { printerId: red.id, material: "PETG", color: "Red", grams: 2000 },
    { printerId: black.id, material: "PETG", color: "Black", grams: 2000 },
  ]);
});

const SETTINGS: Array<[string, string]> = [
  ["material", "PETG"],
  ["filamentColor", "Black"],
  ["layerHeight", "0.2"],
  ["infill", "20"],
  ["supports", "auto"],
  ["numberOfColors", "1"],
  ["deliveryMethod", "pickup"],
];

const withSettings = (overrides: Record<string, string>): Array<[string, string]> => [
  ...SETTINGS.filter(([k]) => !(k in overrides)),
  ...Object.entries(overrides),
];

function draftIdFrom(location: string | null): number {
  const match = /(?:draft|draftId)=(\d+)/.exec(location ?? "");
  if (!match) throw new Error(`no draft id in ${location}`);
  return Number(match[1]);
}

async function saveBracket(overrides: Record<string, string> = { units: "inch", quantity: "4" }) {
  const res = await run(() =>
    uploadAction(
      args(
        multipartRequest("/upload", [["file", fileOf(BRACKET_INCH)], ...withSettings(overrides), ["intent", "save"]], { cookie }),
      ),
    ),
  );
  expect(res.status).toBe(302);
  return draftIdFrom(res.headers.get("location"));
}

async function loaded<T>(fn: () => Promise<unknown>): Promise<T> {
  const res = await run(fn);
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

describe("copies, units and scale through the upload page without JavaScript", () => {
  it("keeps units and copies: the part is measured 25.4 times larger, and weight and time are for all four copies", async () => {
    const id = await saveBracket();
    const row = await jobRow(id);
    expect(row).toMatchObject({ quantity: 4, units: "inch", scalePercent: 100 });
    const copy = row.analysis as DesignAnalysis & { method: "mesh" };
    expect(copy.boundingBox).toEqual({ x: 50.8, y: 25.4, z: 12.7 });
    expect([row.boundingBoxX, row.boundingBoxY, row.boundingBoxZ]).toEqual([50.8, 25.4, 12.7]);
    // a 16 cm³ bracket, not the 0.0 g a 2 mm one would weigh
    expect(copy.estimatedWeight).toBeGreaterThan(5);
    expect(row.estimatedWeightGrams).toBeCloseTo(copy.estimatedWeight * 4, 5);
    expect(row.printTimeMinutes).toBe(copy.estimatedTimeMinutes * 4);
  });

  it("a scale follows s: at 50% the part is half as long and weighs between an eighth and a quarter", async () => {
    const full = await jobRow(await saveBracket({ units: "inch", quantity: "1" }));
    const half = await jobRow(await saveBracket({ units: "inch", quantity: "1", scalePercent: "50" }));
    expect(half.boundingBoxX).toBeCloseTo(25.4, 2);
    expect(half.estimatedWeightGrams).toBeGreaterThan(full.estimatedWeightGrams / 8);
    expect(half.estimatedWeightGrams).toBeLessThan(full.estimatedWeightGrams / 4);
  });

  it("changing only the units of a saved draft measures its stored file again", async () => {
    const id = await saveBracket({ units: "mm", quantity: "1" });
    expect((await jobRow(id)).boundingBoxX).toBeCloseTo(2, 3);
    const res = await run(() =>
      uploadAction(
        args(multipartRequest(`/upload?draft=${id}`, [...withSettings({ units: "inch" }), ["intent", "save"]], { cookie })),
      ),
    );
    expect(res.status).toBe(302);
    const row = await jobRow(id);
    expect(row).toMatchObject({ units: "inch", boundingBoxX: 50.8 });
    expect(row.estimatedWeightGrams).toBeGreaterThan(5);
  });

  it.each([
    ["0", "quantity", "Copies must be a whole number from 1 to 50."],
    ["51", "quantity", "Copies must be a whole number from 1 to 50."],
    ["5", "scalePercent", "Scale must be a whole percentage from 10 to 1000%."],
    ["1001", "scalePercent", "Scale must be a whole percentage from 10 to 1000%."],
  ])("refuses %s as %s, keeping what was typed", async (value, field, message) => {
    const res = await run(() =>
      uploadAction(
        args(
          multipartRequest("/upload", [["file", fileOf(BRACKET_INCH)], ...withSettings({ [field]: value }), ["intent", "save"]], {
            cookie,
          }),
        ),
      ),
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as { result: { error: Record<string, string[]>; initialValue: Record<string, string> } };
    expect(body.result.error[field]).toEqual([message]);
    expect(body.result.initialValue[field]).toBe(value);
  });

  it("refuses units that make the part larger than every printer, and saves nothing", async () => {
    const db = await getDb();
    const before = (await db.select().from(printJobs).where(eq(printJobs.customerId, customerId))).length;
    // a 20 mm cube read as inches is 508 mm across; the printers hold 256 mm
    const res = await run(() =>
      uploadAction(
        args(
          multipartRequest("/upload", [["file", fileOf(CUBE_STL)], ...withSettings({ units: "inch" }), ["intent", "save"]], {
            cookie,
          }),
        ),
      ),
    );
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain(
      "At these units and this scale the part is larger than every printer's build volume (508 × 508 × 508 mm).",
    );
    expect((await db.select().from(printJobs).where(eq(printJobs.customerId, customerId))).length).toBe(before);
  });
});

describe("one price for a draft of four copies of PETG Black", () => {
  it("/upload, /saved-prints, the dashboard, Choose Printer, /submit-print and the order agree", async () => {
    const id = await saveBracket();
    const row = await jobRow(id);
    const expected = quotePrice({
      weightGrams: row.estimatedWeightGrams,
      printTimeMinutes: row.printTimeMinutes,
      colors: 1,
      quantity: 4,
      ratePerKgCents: 9000,
    }).customerPays;
    const range = { kind: "printers", minCents: expected, maxCents: expected, printerCount: 1, scope: "anywhere" } as const;

    const upload = await loaded<{
      nearbyRates: { rates: number[] };
      draft: { quote: { customerPays: number; quantity: number } };
    }>(() => uploadLoader(args(getRequest(`/upload?draft=${id}`, cookie))));
    expect(upload.nearbyRates.rates).toEqual([9000]);
    expect(upload.draft.quote).toMatchObject({ customerPays: expected, quantity: 4 });

    const saved = await loaded<{ drafts: { id: number; price: string; quantity: number }[] }>(() =>
      savedPrintsLoader(args(getRequest("/saved-prints", cookie))),
    );
    expect(saved.drafts.find((d) => d.id === id)).toMatchObject({ quantity: 4, price: priceRangeText(range) });

    const dashboard = await loaded<{ jobs: { id: number; price: string }[] }>(() =>
      dashboardLoader(args(getRequest("/dashboard?tab=drafts", cookie))),
    );
    expect(dashboard.jobs.find((j) => j.id === id)?.price).toBe(priceRangeText(range));

    const api = await loaded<{ price: unknown }>(() =>
      draftLoader(args(getRequest(`/api/drafts/${id}`, cookie), { id: String(id) })),
    );
    expect(api.price).toEqual(range);

    const choose = await loaded<{ printers: { id: number }[]; quotes: Record<string, { customerPays: number }> }>(() =>
      choosePrinterLoader(args(getRequest(`/choose-printer?draftId=${id}`, cookie))),
    );
    expect(choose.printers.map((p) => p.id)).toEqual([blackPrinterId]);
    expect(choose.quotes[blackPrinterId]!.customerPays).toBe(expected);

    const submit = await loaded<{ summary: { total: number }; draft: { quantity: number } }>(() =>
      submitPrintLoader(args(getRequest(`/submit-print?printerId=${blackPrinterId}&draftId=${id}`, cookie))),
    );
    expect(submit).toMatchObject({ summary: { total: expected }, draft: { quantity: 4 } });

    const placed = await run(() =>
      submitPrintAction(
        args(
          formRequest(
            "/submit-print",
            {
              printerId: String(blackPrinterId),
              draftId: String(id),
              filamentColor: "Black",
              deliveryMethod: "pickup",
              quantity: "4",
            },
            { cookie },
          ),
        ),
      ),
    );
    expect(placed.headers.get("location") ?? placed.headers.get("x-remix-redirect")).toBe(`/checkout?orderId=${id}`);
    expect(await jobRow(id)).toMatchObject({ status: "submitted", quantity: 4, amountDueCents: expected });

    const order = await loaded<{ quantity: number; units: string; scalePercent: number; totalCostCents: number }>(() =>
      printJobLoader(args(getRequest(`/api/print-jobs/${id}`, cookie), { id: String(id) })),
    );
    expect(order).toMatchObject({ quantity: 4, units: "inch", scalePercent: 100, totalCostCents: expected });
  });

  it("/submit-print prices the copies asked for and refuses 0 or 51", async () => {
    const id = await saveBracket({ units: "inch", quantity: "1" });
    const one = await jobRow(id);
    const three = await loaded<{ summary: { total: number }; draft: { quantity: number; weightGrams: number } }>(() =>
      submitPrintLoader(args(getRequest(`/submit-print?printerId=${blackPrinterId}&draftId=${id}&quantity=3`, cookie))),
    );
    expect(three.draft).toMatchObject({ quantity: 3 });
    expect(three.draft.weightGrams).toBeCloseTo(one.estimatedWeightGrams * 3, 1);
    expect(three.summary.total).toBe(
      quotePrice({
        weightGrams: three.draft.weightGrams,
        printTimeMinutes: one.printTimeMinutes * 3,
        quantity: 3,
        ratePerKgCents: 9000,
      }).customerPays,
    );
    for (const quantity of ["0", "51"]) {
      const res = await run(() =>
        submitPrintAction(
          args(
            formRequest(
              "/submit-print",
              { printerId: String(blackPrinterId), draftId: String(id), filamentColor: "Black", quantity },
              { cookie },
            ),
          ),
        ),
      );
      expect(res.status).toBe(400);
      expect((await res.json()).result.error).toEqual({ quantity: ["Copies must be a whole number from 1 to 50."] });
    }
    expect((await jobRow(id)).status).toBe("draft");
  });
});

describe("the JSON API", () => {
  const apiSave = (parts: Array<[string, string | File]>) =>
    run(() => saveDraftAction(args(multipartRequest("/api/save-draft", [["file", fileOf(BRACKET_INCH)], ...parts], { cookie }))));

  it("takes quantity, units and scalePercent on save-draft and PUT, and answers them on GET", async () => {
    const res = await apiSave(withSettings({ quantity: "4", units: "inch", scalePercent: "150" }));
    expect(res.status).toBe(201);
    const saved = (await res.json()) as {
      draftId: number;
      quantity: number;
      units: string;
      scalePercent: number;
      estimatedWeight: number;
    };
    expect(saved).toMatchObject({ quantity: 4, units: "inch", scalePercent: 150 });

    const put = await run(() =>
      draftAction(
        args(
          multipartRequest(`/api/drafts/${saved.draftId}`, withSettings({ quantity: "2", units: "inch", scalePercent: "150" }), {
            cookie,
            method: "PUT",
          }),
          { id: String(saved.draftId) },
        ),
      ),
    );
    expect(put.status).toBe(200);
    const got = await loaded<{ quantity: number; units: string; scalePercent: number; estimatedWeight: number }>(() =>
      draftLoader(args(getRequest(`/api/drafts/${saved.draftId}`, cookie), { id: String(saved.draftId) })),
    );
    expect(got).toMatchObject({ quantity: 2, units: "inch", scalePercent: 150 });
    expect(got.estimatedWeight).toBeCloseTo(saved.estimatedWeight / 2, 1);
  });

  it.each([
    [{ quantity: "0" }, "Copies must be a whole number from 1 to 50."],
    [{ quantity: "51" }, "Copies must be a whole number from 1 to 50."],
    [{ units: "ft" }, "Units must be mm, cm or inch."],
    [{ scalePercent: "1001" }, "Scale must be a whole percentage from 10 to 1000%."],
    [
      { units: "inch", scalePercent: "600" },
      "At these units and this scale the part is larger than every printer's build volume",
    ],
  ])("save-draft refuses %o", async (overrides, message) => {
    const res = await apiSave(withSettings(overrides));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain(message);
  });

  it("submit-order takes quantity, refuses 0 and 51, and the order's figures follow it", async () => {
    const id = await saveBracket({ units: "inch", quantity: "1" });
    const one = await jobRow(id);
    const submit = (quantity: unknown) =>
      run(() =>
        submitOrderAction(
          args(
            jsonRequest(
              "/api/submit-order",
              { printerId: blackPrinterId, draftId: id, filamentColor: "Black", deliveryMethod: "pickup", quantity },
              { cookie },
            ),
          ),
        ),
      );
    for (const quantity of [0, 51]) {
      const refused = await submit(quantity);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({ message: "Copies must be a whole number from 1 to 50." });
    }
    const res = await submit(3);
    expect(res.status).toBe(201);
    const order = await jobRow(id);
    expect(order).toMatchObject({ status: "submitted", quantity: 3, printTimeMinutes: one.printTimeMinutes * 3 });
    expect(order.estimatedWeightGrams).toBeCloseTo(one.estimatedWeightGrams * 3, 1);
    expect(((await res.json()) as { totalCents: number }).totalCents).toBe(order.amountDueCents);

    // the owner's accept reserves the filament of all three copies
    const db = await getDb();
    const stock = async () =>
      (await db.select().from(filamentInventory).where(eq(filamentInventory.printerId, blackPrinterId))).find(
        (r) => r.color === "Black",
      )!.grams;
    const before = await stock();
    await payWithTestCard(customerId, id, CARD);
    await transitionJob({ jobId: id, by: { userId: ownerId }, action: "accept" });
    expect(before - (await stock())).toBe(Math.ceil(order.estimatedWeightGrams));
    // the customer's notice and its e-mail name the copies
    const [notice] = await db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, customerId))
      .orderBy(desc(notifications.id))
      .limit(1);
    expect(notice!.message).toBe("Your order for 3 copies of bracket-2x1x0.5-inch.stl was accepted and your card was charged.");
  });
});

describe("the printer page", () => {
  it("counts its finished orders as jobs done", async () => {
    const printer = (await createTestPrinter(ownerId, { name: "Busy Printer" }))!;
    for (const status of ["picked_up", "picked_up", "shipped", "shipped", "shipped", "printing", "confirmed"] as const) {
      await createTestJob(customerId, printer.id, status);
    }
    const page = await loaded<{ printer: { totalJobs: number } }>(() =>
      printerPageLoader(args(getRequest(`/printers/${printer.id}`), { id: String(printer.id) })),
    );
    expect(page.printer.totalJobs).toBe(5);
  });
});

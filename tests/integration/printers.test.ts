import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { filamentInventory, printers, printJobs, users, type Printer } from "../../db/schema";
import { seedDatabase } from "../../db/seed";
import { action as addPrinterAction, loader as addPrinterLoader } from "../../app/routes/add-printer";
import { loader as browseLoader } from "../../app/routes/browse";
import { loader as choosePrinterLoader } from "../../app/routes/choose-printer";
import { action as dashboardAction, loader as dashboardLoader } from "../../app/routes/printer-dashboard";
import { action as editAction, loader as editLoader } from "../../app/routes/printers.$id.edit/route";
import { loader as printersLoader } from "../../app/routes/printers._index";
import { loader as imageLoader } from "../../app/routes/api.printer-images.$file";
import { haversineMiles, publicCoordinate, publicLocation } from "../../app/domain/geo";
import { isDesignCompatible } from "../../app/domain/printer-fit";
import { quotePrice } from "../../app/domain/pricing";
import { resolveLocation } from "../../app/services/gazetteer.server";
import { PHOTO_TOO_LARGE } from "../../app/domain/printer-form";
import type { PrinterJson } from "../../app/domain/printer-listing";
import { getPrinterJson, listOwnerPrinters, searchPrinters } from "../../app/services/printers/search.server";
import { listPrinterReviews } from "../../app/services/printer-reviews.server";
import { getClient, getDb } from "../../app/utils/db.server";
import {
  args,
  createTestUser,
  flashedToast,
  formRequest,
  getRequest,
  refusalMessages,
  run,
  sessionCookieFor,
} from "../setup/requests";

async function json<T>(fn: () => Promise<unknown>): Promise<T> {
  const res = await run(fn);
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

async function userByEmail(email: string) {
  const db = await getDb();
  const [user] = await db.select().from(users).where(eq(users.email, email));
  return user!;
}

async function printerNamed(name: string): Promise<Printer> {
  const db = await getDb();
  const [printer] = await db.select().from(printers).where(eq(printers.name, name));
  return printer!;
}

const names = (list: { name: string }[]) => list.map((p) => p.name);
// A real 1×1 PNG, so the photo check sees genuine image bytes.
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);

beforeAll(async () => {
  await seedDatabase(await getDb(), { log: () => {} });
});

describe("searchPrinters", () => {
  it("finds printers near 'Loveland, CO', nearest first, with the distance to the public (rounded) point", async () => {
    const result = await searchPrinters({ location: "Loveland, CO", radiusMiles: 25 });
    const origin = resolveLocation("Loveland, CO")!;
    expect(result.origin).toMatchObject({ label: "Loveland, CO", source: "search" });
    expect(names(result.printers)).toEqual([
      "Loveland Makerspace MK4",
      "Loveland Mini",
      "Berthoud Print Shop",
      // 0.3 mi apart: rounded to 2 decimals, the Fab Lab's public point is the nearer one
      "Fort Collins Fab Lab",
      "Old Town Ender",
    ]);
    const distances = result.printers.map((p) => p.distance!);
    expect([...distances].sort((a, b) => a - b)).toEqual(distances);
    for (const p of result.printers) {
      // the miles shown tell no more than the public point does
      expect(p.latitude).toMatch(/^-?\d+\.\d\d$/);
      const fromPublicPoint = haversineMiles(origin, { latitude: Number(p.latitude), longitude: Number(p.longitude) });
      expect(p.distance).toBeCloseTo(fromPublicPoint, 2);
    }
    expect(result.total).toBe(5);
  });

  it("leaves out printers beyond the radius", async () => {
    const result = await searchPrinters({ location: "Berthoud, CO", radiusMiles: 10 });
    expect(names(result.printers)).toEqual(["Berthoud Print Shop", "Loveland Makerspace MK4", "Loveland Mini"]);
    expect(result.printers.every((p) => p.distance! <= 10)).toBe(true);
  });

  it("a 200 mm tall PETG part in red lists only printers that fit it and stock enough red PETG", async () => {
    const result = await searchPrinters({ minX: 50, minY: 50, minZ: 200, material: "petg", color: "red", weightGrams: 100 });
    expect(names(result.printers).sort()).toEqual([
      "Berthoud Print Shop",
      "Fort Collins Fab Lab",
      "Loveland Makerspace MK4",
      "Old Town Ender",
    ]);
    // 400 g is more red PETG than the makerspace's 300 g spool holds.
    const heavy = await searchPrinters({ minX: 50, minY: 50, minZ: 200, material: "PETG", color: "Red", weightGrams: 400 });
    expect(names(heavy.printers)).not.toContain("Loveland Makerspace MK4");
    expect(heavy.printers).toHaveLength(3);
  });

  it("fits a part in any orientation by comparing sorted sides", async () => {
    // 10 × 10 × 300 mm lies down only in the Qidi's 325 mm sides.
    const long = await searchPrinters({ minX: 300, minY: 10, minZ: 10 });
    expect(names(long.printers)).toEqual(["Fort Collins Fab Lab"]);
    // 260 × 10 × 10 stands up in the Ender's 270 mm height, but a 260 mm side fits no other axis of the others.
    const tall = await searchPrinters({ minX: 10, minY: 260, minZ: 10 });
    expect(names(tall.printers).sort()).toEqual(["Fort Collins Fab Lab", "Old Town Ender"]);
  });

  it("filters by availability, material and a text search", async () => {
    expect(names((await searchPrinters({ available: true })).printers)).not.toContain("Loveland Mini");
    expect(names((await searchPrinters({ material: "Nylon" })).printers)).toEqual(["Fort Collins Fab Lab"]);
    expect(names((await searchPrinters({ search: "makerspace" })).printers)).toEqual(["Loveland Makerspace MK4"]);
    expect((await searchPrinters({ search: "100%_" })).printers).toHaveLength(0);
  });

  it("sorts by price and by rating, and pages with a total", async () => {
    const cheap = await searchPrinters({ location: "Loveland, CO", sort: "price" });
    expect(cheap.printers.map((p) => p.pricePerGram)).toEqual(["0.08", "0.09", "0.10", "0.12", "0.15"]);
    const rated = await searchPrinters({ sort: "rating" });
    // the demo reviews: Berthoud 5 stars, the Fab Lab 4; the unrated follow
    expect(names(rated.printers).slice(0, 3)).toEqual(["Berthoud Print Shop", "Fort Collins Fab Lab", "Loveland Makerspace MK4"]);
    const second = await searchPrinters({ location: "Loveland, CO", limit: 2, offset: 2 });
    expect(second.total).toBe(5);
    expect(names(second.printers)).toEqual(["Berthoud Print Shop", "Fort Collins Fab Lab"]);
    const past = await searchPrinters({ location: "Loveland, CO", limit: 2, offset: 10 });
    expect(past).toMatchObject({ total: 5, printers: [] });
  });

  it("reports a location it cannot place and falls back to the user's ZIP", async () => {
    expect(await searchPrinters({ location: "Nowhere Special, ZZ" })).toMatchObject({
      locationNotFound: true,
      origin: null,
      printers: [],
      total: 0,
    });
    expect(await searchPrinters({ location: "Loveland" })).toMatchObject({ locationNotFound: true, printers: [], total: 0 });
    expect((await searchPrinters({ location: "Loveland" })).locationChoices).toContain("Loveland, CO");
    expect((await searchPrinters({ location: "Lovland, Colorado" })).locationSuggestions).toEqual(["Loveland, CO"]);
    expect((await searchPrinters({ location: "Berthoud" })).origin).toMatchObject({ label: "Berthoud, CO", source: "search" });
    const home = await searchPrinters({ fallbackZip: "80513", radiusMiles: 10 });
    expect(home.origin).toMatchObject({ source: "profile" });
    expect(home.printers[0]!.name).toBe("Berthoud Print Shop");
  });

  it("every printer's rating and count are those of its reviews, the demo printers included", async () => {
    const client = await getClient();
    const { rows } = await client.execute(`
      SELECT p.name, p.rating, p.total_reviews AS stored, count(r.id) AS counted, round(avg(r.rating), 2) AS mean
      FROM printers p LEFT JOIN printer_reviews r ON r.printer_id = p.id GROUP BY p.id`);
    const mismatched = rows.filter((r) => Number(r.stored) !== Number(r.counted) || (r.rating ?? null) !== (r.mean ?? null));
    expect(mismatched.map((r) => r.name)).toEqual([]);
    // the demo data has real reviews behind its ratings
    const berthoud = rows.find((r) => r.name === "Berthoud Print Shop");
    expect(Number(berthoud!.counted)).toBeGreaterThan(0);
    const shown = await listPrinterReviews(
      Number((await client.execute("SELECT id FROM printers WHERE name = 'Berthoud Print Shop'")).rows[0]!.id),
    );
    expect(shown.length).toBe(Number(berthoud!.stored));
  });

  it("serializes the listing's shape, with the public place and coordinates", async () => {
    const [p] = (await searchPrinters({ location: "80513", radiusMiles: 5 })).printers;
    expect(p).toMatchObject({
      name: "Berthoud Print Shop",
      pricePerGram: "0.12",
      // stored: "345 Mountain Ave, Berthoud, CO 80513" at 40.3083, -105.0811
      location: "Berthoud, CO 80513",
      city: "Berthoud",
      state: "CO",
      zip: "80513",
      latitude: "40.31",
      longitude: "-105.08",
      buildVolumeX: 256,
      materials: ["PLA", "PETG", "ABS", "ASA", "TPU"],
      isAvailable: true,
      // a Bambu Lab P1S without a photo: the P1S drawing
      imageUrl: "/printer-models/bambu-lab-p1s.svg",
      owner: { firstName: "Bella", lastName: "Berthold", rating: 5, totalReviews: 1 },
    });
    expect(p!.filamentInventory).toContainEqual({ material: "PETG", color: "Red", grams: 750, inStock: true });
    expect(typeof p!.distance).toBe("number");
  });

  it("agrees with isDesignCompatible for every printer and design (the SQL mirrors the domain rule)", async () => {
    const db = await getDb();
    const owner = await createTestUser();
    let seed = 7;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const mats = ["PLA", "PETG", "ABS", "TPU"];
    const colors = ["Red", "Black", "White"];
    for (let i = 0; i < 40; i++) {
      const [x, y, z] = [100 + rand(250), 100 + rand(250), 100 + rand(250)];
      const materials = mats.filter(() => rand(2) === 1);
      const [row] = await db
        .insert(printers)
        .values({
          ownerId: owner.id,
          name: `Fuzz ${i}`,
          model: "Custom/Other",
          buildVolumeX: x,
          buildVolumeY: y,
          buildVolumeZ: z,
          fitSmall: Math.min(x, y, z),
          fitMid: x + y + z - Math.min(x, y, z) - Math.max(x, y, z),
          fitLarge: Math.max(x, y, z),
          materials,
          ratePerKgCents: 10000,
          location: "Fuzzville",
          latitude: 10,
          longitude: 10,
        })
        .returning();
      // Some printers keep no inventory at all, some keep rows for materials they don't list.
      if (rand(3) > 0) {
        for (const m of mats) {
          for (const c of colors)
            if (rand(3) === 0)
              await db.insert(filamentInventory).values({ printerId: row!.id, material: m, color: c, grams: rand(4) * 150 });
        }
      }
    }
    const everyone = await searchPrinters({ search: "Fuzz", limit: 500 });
    expect(everyone.total).toBe(40);
    for (let d = 0; d < 60; d++) {
      const design = {
        minX: rand(2) ? 50 + rand(300) : null,
        minY: rand(2) ? 50 + rand(300) : null,
        minZ: rand(2) ? 50 + rand(300) : null,
        material: rand(3) ? mats[rand(mats.length)]! : null,
        color: rand(2) ? colors[rand(colors.length)]! : null,
        weightGrams: rand(2) ? rand(400) : null,
      };
      const found = await searchPrinters({ ...design, search: "Fuzz", limit: 500 });
      const expected = everyone.printers.filter(
        (p) => isDesignCompatible({ ...p, inventory: p.filamentInventory }, design).compatible,
      );
      expect(names(found.printers).sort(), JSON.stringify(design)).toEqual(names(expected).sort());
    }
  });
});

describe("/browse", () => {
  it("lists available printers by default, all with available=false, and answers a search with distances", async () => {
    const list = await json<{ printers: PrinterJson[]; view: string }>(() => browseLoader(args(getRequest("/browse"))));
    expect(list.view).toBe("list");
    expect(names(list.printers)).not.toContain("Loveland Mini");
    const all = await json<{ printers: PrinterJson[] }>(() => browseLoader(args(getRequest("/browse?available=false"))));
    expect(names(all.printers)).toContain("Loveland Mini");
    const near = await json<{ printers: PrinterJson[]; origin: { label: string }; view: string; tileUrl: string }>(() =>
      browseLoader(args(getRequest("/browse?location=Loveland%2C+CO&material=PETG&view=map"))),
    );
    expect(near.view).toBe("map");
    expect(near.origin.label).toBe("Loveland, CO");
    expect(names(near.printers)).toEqual([
      "Loveland Makerspace MK4",
      "Berthoud Print Shop",
      "Fort Collins Fab Lab",
      "Old Town Ender",
    ]);
    expect(near.tileUrl).toBe("https://tile.openstreetmap.org/{z}/{x}/{y}.png");
  });

  it("uses the signed-in user's ZIP code when no location is typed", async () => {
    const casey = await userByEmail("casey@printnear.test");
    const page = await json<{ origin: { source: string }; filters: { location: string } }>(async () =>
      browseLoader(args(getRequest("/browse", await sessionCookieFor(casey.id)))),
    );
    expect(page.origin.source).toBe("profile");
    expect(page.filters.location).toBe("80537");
  });
});

describe("/printers", () => {
  it("shows the design filters, matches them, and prices each printer with the price engine", async () => {
    const page = await json<{
      hasDesign: boolean;
      filtered: boolean;
      total: number;
      printers: PrinterJson[];
      quotes: Record<string, { customerPays: number }>;
      draft: null;
    }>(() => printersLoader(args(getRequest("/printers?material=PETG&color=Red&weight=100&minX=50&minY=50&minZ=200"))));
    expect(page).toMatchObject({ hasDesign: true, filtered: true, total: 4, draft: null });
    for (const p of page.printers) {
      expect(page.quotes[p.id]!.customerPays).toBe(
        quotePrice({ weightGrams: 100, ratePerKgCents: p.ratePerKgCents }).customerPays,
      );
    }
    // Without a location the cheapest printer comes first for a design.
    expect(page.printers[0]!.name).toBe("Old Town Ender");
  });

  it("uses the customer's own draft for the price, and ignores someone else's jobId", async () => {
    const db = await getDb();
    const owner = await createTestUser();
    const stranger = await createTestUser();
    const [draft] = await db
      .insert(printJobs)
      .values({
        customerId: owner.id,
        fileName: "vase.stl",
        estimatedWeightGrams: 120,
        numberOfColors: 3,
        printTimeMinutes: 95,
        material: "PETG",
        filamentColor: "Red",
      })
      .returning();
    const url = `/printers?material=PETG&color=Red&weight=120&minX=50&minY=50&minZ=50&jobId=${draft!.id}`;
    const mine = await json<{ draft: { id: number }; printers: PrinterJson[]; quotes: Record<string, { customerPays: number }> }>(
      async () => printersLoader(args(getRequest(url, await sessionCookieFor(owner.id)))),
    );
    expect(mine.draft.id).toBe(draft!.id);
    const berthoud = mine.printers.find((p) => p.name === "Berthoud Print Shop")!;
    expect(mine.quotes[berthoud.id]!.customerPays).toBe(
      quotePrice({ weightGrams: 120, colors: 3, printTimeMinutes: 95, ratePerKgCents: 12000 }).customerPays,
    );
    const theirs = await json<{ draft: null; quotes: Record<string, { customerPays: number }> }>(async () =>
      printersLoader(args(getRequest(url, await sessionCookieFor(stranger.id)))),
    );
    expect(theirs.draft).toBeNull();
    expect(theirs.quotes[berthoud.id]!.customerPays).toBe(quotePrice({ weightGrams: 120, ratePerKgCents: 12000 }).customerPays);
  });

  it("with no design it lists every printer, filtered by status", async () => {
    const page = await json<{ hasDesign: boolean; filtered: boolean; printers: PrinterJson[] }>(() =>
      printersLoader(args(getRequest("/printers?status=available"))),
    );
    expect(page).toMatchObject({ hasDesign: false, filtered: false });
    expect(page.printers.every((p) => p.isAvailable)).toBe(true);
  });
});

describe("/choose-printer", () => {
  it("narrows to the draft's material and size and prices each printer", async () => {
    const db = await getDb();
    const customer = await createTestUser();
    const [draft] = await db
      .insert(printJobs)
      .values({
        customerId: customer.id,
        fileName: "tall.stl",
        estimatedWeightGrams: 60,
        material: "PETG",
        filamentColor: "Red",
        boundingBoxX: 40,
        boundingBoxY: 40,
        boundingBoxZ: 260,
      })
      .returning();
    const page = await json<{ draft: { id: number }; printers: PrinterJson[]; quotes: Record<string, unknown> }>(async () =>
      choosePrinterLoader(
        args(getRequest(`/choose-printer?draftId=${draft!.id}&location=Loveland%2C+CO`, await sessionCookieFor(customer.id))),
      ),
    );
    expect(names(page.printers)).toEqual(["Fort Collins Fab Lab", "Old Town Ender"]);
    expect(Object.keys(page.quotes)).toHaveLength(2);
    const search = await json<{ printers: PrinterJson[] }>(() =>
      choosePrinterLoader(args(getRequest("/choose-printer?search=berthoud"))),
    );
    expect(names(search.printers)).toEqual(["Berthoud Print Shop"]);
  });
});

describe("/add-printer", () => {
  it("needs a signed-in user", async () => {
    const res = await run(() => addPrinterLoader(args(getRequest("/add-printer"))));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/auth?redirectTo=%2Fadd-printer");
  });

  it("applies a known model's preset on the server when posted without volumes, places it, and makes a customer 'both'", async () => {
    const customer = await createTestUser({ userType: "customer" });
    const res = await run(async () =>
      addPrinterAction(
        args(
          formRequest(
            "/add-printer",
            { name: "Garage Prusa", model: "Prusa MK4", location: "Loveland, CO 80537", isAvailable: "on" },
            { cookie: await sessionCookieFor(customer.id) },
          ),
        ),
      ),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/printer-dashboard");
    expect(await flashedToast(res)).toMatchObject({ title: "Printer added successfully!" });
    const printer = await printerNamed("Garage Prusa");
    expect(printer).toMatchObject({
      ownerId: customer.id,
      model: "Prusa MK4",
      buildVolumeX: 250,
      buildVolumeY: 210,
      buildVolumeZ: 220,
      fitSmall: 210,
      fitMid: 220,
      fitLarge: 250,
      ratePerKgCents: 18000,
      materials: ["PLA", "PETG", "TPU", "Wood Fill", "Carbon Fiber"],
      zip: "80537",
      city: "Loveland",
      state: "CO",
      isAvailable: true,
    });
    expect(printer.latitude).toBeCloseTo(40.4, 1);
    expect((await userByEmail(customer.email)).userType).toBe("both");
    const nearby = await searchPrinters({ location: "80537", radiusMiles: 5 });
    expect(names(nearby.printers)).toContain("Garage Prusa");
  });

  it("locks a known model's volume even when other numbers are posted", async () => {
    const owner = await createTestUser({ userType: "printer_owner" });
    await run(async () =>
      addPrinterAction(
        args(
          formRequest(
            "/add-printer",
            {
              name: "Locked P1S",
              model: "Bambu Lab P1S",
              location: "Berthoud, CO",
              buildVolumeX: "999",
              buildVolumeY: "999",
              buildVolumeZ: "999",
              pricePerGram: "0.14",
              materials: "PETG",
            },
            { cookie: await sessionCookieFor(owner.id) },
          ),
        ),
      ),
    );
    expect(await printerNamed("Locked P1S")).toMatchObject({
      buildVolumeX: 256,
      buildVolumeZ: 256,
      ratePerKgCents: 14000,
      materials: ["PETG"],
      isAvailable: false,
    });
    expect((await userByEmail(owner.email)).userType).toBe("printer_owner");
  });

  it("adds a Custom/Other printer with its own volume, name and coordinates", async () => {
    const owner = await createTestUser();
    const cookie = await sessionCookieFor(owner.id);
    const body = new FormData();
    for (const [k, v] of Object.entries({
      name: "Big Voron",
      model: "Custom/Other",
      customModel: "Voron 2.4",
      description: "Fast and enclosed.",
      buildVolumeX: "350",
      buildVolumeY: "350",
      buildVolumeZ: "340",
      location: "Somewhere rural",
      latitude: "40.5",
      longitude: "-105.2",
      pricePerGram: "0.2",
      isAvailable: "on",
    }))
      body.append(k, v);
    body.append("materials", "ABS");
    body.append("materials", "ASA");
    body.append("image", new File([PNG], "voron.png", { type: "image/png" }));
    const res = await run(() =>
      addPrinterAction(args(new Request("http://localhost:3000/add-printer", { method: "POST", body, headers: { cookie } }))),
    );
    expect(res.status).toBe(302);
    const printer = await printerNamed("Big Voron");
    expect(printer).toMatchObject({
      model: "Voron 2.4",
      buildVolumeZ: 340,
      latitude: 40.5,
      longitude: -105.2,
      materials: ["ABS", "ASA"],
      ratePerKgCents: 20000,
    });
    expect(printer.imageKey).toMatch(/^printer-images\/\d{4}\/\d{2}\/[0-9a-f]{32}\.png$/);
    const [, year, month, file] = printer.imageKey!.split("/");
    const image = await run(() =>
      imageLoader(args(getRequest(`/api/printer-images/${year}-${month}-${file}`), { file: `${year}-${month}-${file}` })),
    );
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    // stored as re-encoded on its way in (decision 017): a 1×1 PNG still
    const stored = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    expect(stored).toMatchObject({ format: "png", width: 1, height: 1 });
  });

  it("answers with the documented messages and keeps what was typed", async () => {
    const owner = await createTestUser();
    const res = await run(async () =>
      addPrinterAction(
        args(
          formRequest(
            "/add-printer",
            { name: "", model: "", location: "", pricePerGram: "" },
            { cookie: await sessionCookieFor(owner.id) },
          ),
        ),
      ),
    );
    expect(res.status).toBe(400);
    const errors = (await res.json()).result.error;
    expect(errors).toMatchObject({
      name: ["Printer name is required"],
      model: ["Printer model is required"],
      location: ["Location is required"],
      pricePerGram: ["Price per gram is required"],
      materials: ["At least one material is required"],
      buildVolumeX: ["Build volume X is required"],
      buildVolumeY: ["Build volume Y is required"],
      buildVolumeZ: ["Build volume Z is required"],
    });
    const custom = await run(async () =>
      addPrinterAction(
        args(
          formRequest(
            "/add-printer",
            { name: "No size", model: "Custom/Other", location: "Loveland, CO", pricePerGram: "0.1", materials: "PLA" },
            { cookie: await sessionCookieFor(owner.id) },
          ),
        ),
      ),
    );
    const customBody = await custom.json();
    expect(customBody.result.error.buildVolumeZ).toEqual(["Build volume Z is required"]);
    expect(customBody.result.initialValue).toMatchObject({ name: "No size", location: "Loveland, CO" });
  });

  it("refuses a place the gazetteer can't find (unless coordinates are given) and a fake photo", async () => {
    const owner = await createTestUser();
    const cookie = await sessionCookieFor(owner.id);
    const base = { name: "Lost", model: "Prusa MK4", location: "Atlantis" };
    const lost = await run(() => addPrinterAction(args(formRequest("/add-printer", base, { cookie }))));
    expect(lost.status).toBe(400);
    expect((await lost.json()).result.error.location[0]).toMatch(/couldn't place this location/);
    const fake = await run(() =>
      addPrinterAction(
        args(
          formRequest(
            "/add-printer",
            { ...base, location: "Loveland, CO", image: new File(["<svg/>"], "x.png", { type: "image/png" }) },
            { cookie },
          ),
        ),
      ),
    );
    expect((await fake.json()).result.error.image).toEqual(["The photo must be a JPEG, PNG or WebP image"]);
    const db = await getDb();
    expect(await db.select().from(printers).where(eq(printers.name, "Lost"))).toHaveLength(0);
  });
});

describe("the printer owner's dashboard and settings", () => {
  async function ownerWithPrinter(name: string) {
    const owner = await createTestUser({ userType: "printer_owner" });
    const cookie = await sessionCookieFor(owner.id);
    await run(() =>
      addPrinterAction(
        args(
          formRequest(
            "/add-printer",
            { name, model: "Creality Ender 3 V2", location: "Fort Collins, CO", isAvailable: "on" },
            { cookie },
          ),
        ),
      ),
    );
    return { owner, cookie, printer: await printerNamed(name) };
  }

  it("lists the owner's printers with the Active Printers count, and sends visitors to sign in", async () => {
    const { cookie } = await ownerWithPrinter("Dash One");
    const page = await json<{ printers: PrinterJson[] }>(() => dashboardLoader(args(getRequest("/printer-dashboard", cookie))));
    expect(names(page.printers)).toEqual(["Dash One"]);
    const visitor = await run(() => dashboardLoader(args(getRequest("/printer-dashboard"))));
    expect(visitor.headers.get("location")).toBe("/auth?redirectTo=%2Fprinter-dashboard");
  });

  it("switches a printer offline and online; another user's switch changes nothing", async () => {
    const { cookie, printer } = await ownerWithPrinter("Switchy");
    const off = await run(() =>
      dashboardAction(
        args(
          formRequest(
            "/printer-dashboard",
            { intent: "toggle-availability", printerId: String(printer.id), isAvailable: "false" },
            { cookie },
          ),
        ),
      ),
    );
    expect(await flashedToast(off)).toMatchObject({ title: "Status updated" });
    expect((await printerNamed("Switchy")).isAvailable).toBe(false);
    await run(() =>
      dashboardAction(
        args(
          formRequest(
            "/printer-dashboard",
            { intent: "toggle-availability", printerId: String(printer.id), isAvailable: "true" },
            { cookie },
          ),
        ),
      ),
    );
    expect((await printerNamed("Switchy")).isAvailable).toBe(true);

    const intruder = await createTestUser();
    const res = await run(async () =>
      dashboardAction(
        args(
          formRequest(
            "/printer-dashboard",
            { intent: "toggle-availability", printerId: String(printer.id), isAvailable: "false" },
            { cookie: await sessionCookieFor(intruder.id) },
          ),
        ),
      ),
    );
    expect(await flashedToast(res)).toMatchObject({ title: "Failed to update printer status", variant: "destructive" });
    expect((await printerNamed("Switchy")).isAvailable).toBe(true);
  });

  it("edits settings, places a changed location again, and hides the page from other users", async () => {
    const { cookie, printer } = await ownerWithPrinter("Editable");
    const intruder = await createTestUser();
    const intruderCookie = await sessionCookieFor(intruder.id);
    expect(
      (await run(() => editLoader(args(getRequest(`/printers/${printer.id}/edit`, intruderCookie), { id: String(printer.id) }))))
        .status,
    ).toBe(404);
    const stolen = await run(() =>
      editAction(
        args(
          formRequest(
            `/printers/${printer.id}/edit`,
            { intent: "settings", name: "Stolen", location: "Berthoud, CO", pricePerGram: "0.01", materials: "PLA" },
            { cookie: intruderCookie },
          ),
          { id: String(printer.id) },
        ),
      ),
    );
    expect(stolen.status).toBe(404);

    const page = await json<{ printer: PrinterJson }>(() =>
      editLoader(args(getRequest(`/printers/${printer.id}/edit`, cookie), { id: String(printer.id) })),
    );
    const body = new FormData();
    for (const [k, v] of Object.entries({
      intent: "settings",
      name: "Edited Ender",
      description: "Now with PETG",
      location: "Berthoud, CO 80513",
      pricePerGram: "0.11",
      latitude: page.printer.latitude!,
      longitude: page.printer.longitude!,
    }))
      body.append(k, v);
    body.append("materials", "PLA");
    body.append("materials", "PETG");
    const res = await run(() =>
      editAction(
        args(new Request(`http://localhost:3000/printers/${printer.id}/edit`, { method: "POST", body, headers: { cookie } }), {
          id: String(printer.id),
        }),
      ),
    );
    expect(res.headers.get("location")).toBe("/printer-dashboard");
    expect(await flashedToast(res)).toMatchObject({ title: "Printer settings updated successfully." });
    const saved = await printerNamed("Edited Ender");
    expect(saved).toMatchObject({
      description: "Now with PETG",
      ratePerKgCents: 11000,
      materials: ["PLA", "PETG"],
      zip: "80513",
      isAvailable: false,
    });
    // The old Fort Collins coordinates were not reused for the new place.
    expect(saved.latitude).toBeCloseTo(40.3, 1);

    const none = await run(() =>
      editAction(
        args(
          formRequest(
            `/printers/${printer.id}/edit`,
            { intent: "settings", name: "Edited Ender", location: "Berthoud, CO", pricePerGram: "-1" },
            { cookie },
          ),
          { id: String(printer.id) },
        ),
      ),
    );
    const errors = (await none.json()).result.error;
    expect(errors.materials).toEqual(["At least one material is required"]);
    expect(errors.pricePerGram[0]).toBe("Price per gram must be at least $0.01");
  });

  it("keeps the filament inventory: add, update, remove, and only materials the printer offers", async () => {
    const { cookie, printer } = await ownerWithPrinter("Stocked");
    const post = (fields: Record<string, string>) =>
      run(() => editAction(args(formRequest(`/printers/${printer.id}/edit`, fields, { cookie }), { id: String(printer.id) })));
    const added = await post({ intent: "inventory-set", rowKey: "new", material: "PETG", color: "Red", grams: "750" });
    expect(added.headers.get("location")).toBe(`/printers/${printer.id}/edit#inventory`);
    await post({ intent: "inventory-set", rowKey: "PETG|Red", material: "PETG", color: "Red", grams: "500" });
    const db = await getDb();
    expect(
      await db
        .select({ grams: filamentInventory.grams })
        .from(filamentInventory)
        .where(eq(filamentInventory.printerId, printer.id)),
    ).toEqual([{ grams: 500 }]);
    const found = await searchPrinters({ material: "PETG", color: "Red", weightGrams: 450, search: "Stocked" });
    expect(names(found.printers)).toEqual(["Stocked"]);

    const wrong = await post({ intent: "inventory-set", rowKey: "new", material: "Nylon", color: "Red", grams: "100" });
    expect(wrong.status).toBe(400);
    expect(await refusalMessages(wrong)).toEqual(["This printer doesn't offer Nylon. Add it to the printer's materials first."]);
    const negative = await post({ intent: "inventory-set", rowKey: "new", material: "PLA", color: "Red", grams: "-5" });
    expect(await refusalMessages(negative)).toEqual(["Grams in stock cannot be negative"]);

    await post({ intent: "inventory-remove", rowKey: "PETG|Red", material: "PETG", color: "Red" });
    expect(await db.select().from(filamentInventory).where(eq(filamentInventory.printerId, printer.id))).toHaveLength(0);
  });

  it("deletes a printer, but not while an order depends on it, and never someone else's", async () => {
    const { owner, cookie, printer } = await ownerWithPrinter("Doomed");
    const intruder = await createTestUser();
    const del = (c: string) =>
      run(() =>
        dashboardAction(
          args(formRequest("/printer-dashboard", { intent: "delete", printerId: String(printer.id) }, { cookie: c })),
        ),
      );
    expect(await flashedToast(await del(await sessionCookieFor(intruder.id)))).toMatchObject({
      title: "Failed to delete printer.",
    });
    const db = await getDb();
    const [job] = await db
      .insert(printJobs)
      .values({ customerId: owner.id, printerId: printer.id, fileName: "a.stl", status: "printing" })
      .returning();
    expect(await flashedToast(await del(cookie))).toMatchObject({
      title: "Failed to delete printer.",
      description: expect.stringMatching(/orders in progress/),
    });
    await db.update(printJobs).set({ status: "picked_up" }).where(eq(printJobs.id, job!.id));
    expect(await flashedToast(await del(cookie))).toMatchObject({ title: "Printer deleted successfully." });
    expect(await db.select().from(printers).where(eq(printers.id, printer.id))).toHaveLength(0);
  });
});

describe("the dashboard's quick add-printer form", () => {
  const complete: [string, string][] = [
    ["intent", "quick-add-printer"],
    ["model", "Prusa MK4"],
    ["materials", "PLA"],
    ["materials", "PETG"],
    ["filamentCost", "24.99"],
    ["spoolWeight", "1000"],
    ["street", "120 E 4th St"],
    ["city", "Loveland"],
    ["state", "co"],
    ["zip", "80537"],
  ];

  function quickAdd(fields: [string, string][], cookie: string) {
    const body = new FormData();
    for (const [key, value] of fields) body.append(key, value);
    const request = new Request("http://localhost:3000/printer-dashboard", { method: "POST", body, headers: { cookie } });
    return run(() => dashboardAction(args(request)));
  }

  async function printersOf(ownerId: number) {
    const db = await getDb();
    return db.select().from(printers).where(eq(printers.ownerId, ownerId));
  }

  it("refuses a blank form with the document's messages and stores nothing", async () => {
    const owner = await createTestUser({ userType: "printer_owner" });
    const res = await quickAdd([["intent", "quick-add-printer"]], await sessionCookieFor(owner.id));
    expect(res.status).toBe(400);
    const { result } = (await res.json()) as { result: { error: Record<string, string[]> } };
    expect(result.error).toMatchObject({
      model: ["Please select a printer model"],
      materials: ["Please select at least one material"],
      filamentCost: ["Please enter filament cost and weight"],
      spoolWeight: ["Please enter filament cost and weight"],
      street: ["Please enter complete address information"],
      zip: ["Please enter complete address information"],
    });
    expect(await printersOf(owner.id)).toEqual([]);
  });

  it("lists the same printer the full form does, priced at the spool's cost per gram, and makes a customer 'both'", async () => {
    const customer = await createTestUser({ userType: "customer" });
    const res = await quickAdd(complete, await sessionCookieFor(customer.id));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/printer-dashboard");
    expect(await flashedToast(res)).toMatchObject({
      title: "Printer added successfully!",
      description: "Prusa MK4 is now listed on the marketplace.",
    });
    const [quick] = await printersOf(customer.id);
    expect(quick).toMatchObject({
      name: "Prusa MK4",
      model: "Prusa MK4",
      buildVolumeX: 250,
      buildVolumeY: 210,
      buildVolumeZ: 220,
      materials: ["PLA", "PETG"],
      ratePerKgCents: 2500,
      location: "120 E 4th St, Loveland, CO 80537",
      city: "Loveland",
      state: "CO",
      zip: "80537",
      isAvailable: true,
    });
    expect((await userByEmail(customer.email)).userType).toBe("both");

    // the full form, given the same printer, lists the same row
    const other = await createTestUser({ userType: "customer" });
    const body = new FormData();
    for (const [key, value] of [
      ["name", "Prusa MK4"],
      ["model", "Prusa MK4"],
      ["location", "120 E 4th St, Loveland, CO 80537"],
      ["pricePerGram", "0.0250"],
      ["materials", "PLA"],
      ["materials", "PETG"],
      ["isAvailable", "on"],
    ])
      body.append(key!, value!);
    const cookie = await sessionCookieFor(other.id);
    await run(() =>
      addPrinterAction(args(new Request("http://localhost:3000/add-printer", { method: "POST", body, headers: { cookie } }))),
    );
    const [full] = await printersOf(other.id);
    const listing = ({ id: _id, ownerId: _owner, createdAt: _c, updatedAt: _u, ...rest }: Printer) => rest;
    expect(listing(quick!)).toEqual(listing(full!));
  });

  it("refuses an address the gazetteer can't place, keeping what was typed", async () => {
    const owner = await createTestUser({ userType: "printer_owner" });
    const fields = complete.map(([k, v]): [string, string] => [k, k === "zip" ? "00000" : k === "city" ? "Nowhere" : v]);
    const res = await quickAdd(
      fields.map(([k, v]) => [k, k === "state" ? "ZZ" : v]),
      await sessionCookieFor(owner.id),
    );
    expect(res.status).toBe(400);
    const { result } = (await res.json()) as {
      result: { error: Record<string, string[]>; initialValue: Record<string, unknown> };
    };
    expect(result.error.zip).toEqual(["We couldn't find this address. Check the city, state and ZIP code."]);
    expect(result.initialValue).toMatchObject({ street: "120 E 4th St", city: "Nowhere" });
    expect(await printersOf(owner.id)).toEqual([]);
  });
});

describe("/api/printer-images", () => {
  it("serves default.jpg as a JPEG, and 404 for names it never issued", async () => {
    const res = await run(() => imageLoader(args(getRequest("/api/printer-images/default.jpg"), { file: "default.jpg" })));
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    for (const file of ["..%2F..%2Fetc%2Fpasswd", "2026-01-abc.png", "default.png"]) {
      expect((await run(() => imageLoader(args(getRequest(`/api/printer-images/${file}`), { file })))).status).toBe(404);
    }
  });
});

describe("printers without a photo", () => {
  it("get their family's drawing, which the image route serves as SVG", async () => {
    const printer = await printerNamed("Berthoud Print Shop");
    const cases = [
      { model: "Bambu Lab X1 Carbon", family: "corexy" },
      { model: "Original Prusa MK4", family: "bedslinger" },
      { model: "Custom build", family: "generic" },
    ];
    const db = await getDb();
    for (const { model, family } of cases) {
      await db.update(printers).set({ model, imageKey: null }).where(eq(printers.id, printer.id));
      const json = (await getPrinterJson(printer.id, {}))!;
      const file = `family-${family}.svg`;
      expect(json.imageUrl).toBe(`/api/printer-images/${file}`);
      const res = await run(() => imageLoader(args(getRequest(json.imageUrl), { file })));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/svg+xml");
      expect(await res.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    }
    await db.update(printers).set({ model: printer.model, imageKey: printer.imageKey }).where(eq(printers.id, printer.id));
    expect(
      (await run(() => imageLoader(args(getRequest("/api/printer-images/family-x.svg"), { file: "family-x.svg" })))).status,
    ).toBe(404);
  });
});

describe("printer places: public to everyone, exact for the owner", () => {
  const BERTHOUD_STREET = "345 Mountain Ave, Berthoud, CO 80513";

  it("everyone sees City, ST ZIP and coordinates to 2 decimals; the owner (viewerId) sees the typed place and exact ones", async () => {
    const printer = await printerNamed("Berthoud Print Shop");
    expect(printer).toMatchObject({ location: BERTHOUD_STREET, latitude: 40.3083, longitude: -105.0811 });
    const stranger = await createTestUser();
    for (const viewerId of [undefined, null, stranger.id]) {
      const seen = (await getPrinterJson(printer.id, { viewerId }))!;
      expect(seen).toMatchObject({ location: "Berthoud, CO 80513", latitude: "40.31", longitude: "-105.08" });
      expect(JSON.stringify(seen)).not.toMatch(/345 Mountain|40\.3083|105\.0811/);
    }
    const own = (await getPrinterJson(printer.id, { viewerId: printer.ownerId }))!;
    expect(own).toMatchObject({ location: BERTHOUD_STREET, latitude: "40.3083", longitude: "-105.0811" });
    expect((await listOwnerPrinters(printer.ownerId))[0]).toMatchObject({ location: "Berthoud, CO 80513", latitude: "40.31" });
    expect((await listOwnerPrinters(printer.ownerId, { viewerId: printer.ownerId }))[0]).toMatchObject({
      location: BERTHOUD_STREET,
      latitude: "40.3083",
    });
    // a search by the owner shows their own printer exactly and everyone else's publicly
    const searched = await searchPrinters({ location: "Berthoud, CO", radiusMiles: 10, viewerId: printer.ownerId });
    const byName = new Map(searched.printers.map((p) => [p.name, p]));
    expect(byName.get("Berthoud Print Shop")).toMatchObject({ location: BERTHOUD_STREET, latitude: "40.3083" });
    expect(byName.get("Loveland Makerspace MK4")).toMatchObject({
      location: "Loveland, CO 80537",
      latitude: "40.40",
      longitude: "-105.07",
    });
  });

  it("public pages carry no street address or exact point", async () => {
    const list = await json<{ printers: PrinterJson[] }>(() =>
      browseLoader(args(getRequest("/browse?available=false&location=Loveland%2C+CO&radius=50"))),
    );
    expect(names(list.printers)).toEqual(
      expect.arrayContaining([
        "Berthoud Print Shop",
        "Loveland Makerspace MK4",
        "Loveland Mini",
        "Fort Collins Fab Lab",
        "Old Town Ender",
      ]),
    );
    const text = JSON.stringify(list);
    for (const secret of ["345 Mountain Ave", "500 E 3rd St", "215 N College Ave", "40.3083", "40.3953", "40.588"])
      expect(text).not.toContain(secret);
    for (const p of list.printers) {
      expect(p.latitude).toMatch(/^\d+\.\d\d$/);
      expect(p.longitude).toMatch(/^-\d+\.\d\d$/);
    }
  });

  it("a text search matches the public place, never the typed street address", async () => {
    expect(names((await searchPrinters({ search: "345 Mountain" })).printers)).toEqual([]);
    expect(names((await searchPrinters({ search: "College Ave" })).printers)).toEqual([]);
    expect(names((await searchPrinters({ search: "80513" })).printers)).toContain("Berthoud Print Shop");
    expect(names((await searchPrinters({ search: "Fort Collins, CO" })).printers)).toEqual(
      expect.arrayContaining(["Fort Collins Fab Lab", "Old Town Ender"]),
    );
  });

  it("the owner's settings page keeps the typed location and exact coordinates", async () => {
    const printer = await printerNamed("Loveland Makerspace MK4");
    const page = await json<{ printer: PrinterJson }>(async () =>
      editLoader(
        args(getRequest(`/printers/${printer.id}/edit`, await sessionCookieFor(printer.ownerId)), { id: String(printer.id) }),
      ),
    );
    expect(page.printer).toMatchObject({
      location: "500 E 3rd St, Loveland, CO 80537",
      latitude: "40.3953",
      longitude: "-105.0717",
    });
  });

  it("the radius and the miles follow the public point, so neither can be used to find the exact one", async () => {
    const db = await getDb();
    const owner = await createTestUser();
    const origin = resolveLocation("Loveland, CO")!;
    let seed = 11;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const radius = 3;
    const placed: { name: string; latitude: number; longitude: number }[] = [];
    for (let i = 0; i < 40; i++) {
      // points within half a mile of the radius, all around the origin
      const miles = radius - 0.5 + rand();
      const bearing = rand() * 2 * Math.PI;
      const latitude = origin.latitude + (miles / 69.05) * Math.cos(bearing);
      const longitude = origin.longitude + (miles / (69.05 * Math.cos((origin.latitude * Math.PI) / 180))) * Math.sin(bearing);
      placed.push({ name: `Edge ${i}`, latitude, longitude });
      await db.insert(printers).values({
        ownerId: owner.id,
        name: `Edge ${i}`,
        model: "Custom/Other",
        buildVolumeX: 100,
        buildVolumeY: 100,
        buildVolumeZ: 100,
        fitSmall: 100,
        fitMid: 100,
        fitLarge: 100,
        materials: ["PLA"],
        ratePerKgCents: 10000,
        location: `${i} Secret Lane`,
        latitude,
        longitude,
      });
    }
    const publicMiles = (p: { latitude: number; longitude: number }) =>
      haversineMiles(origin, { latitude: publicCoordinate(p.latitude), longitude: publicCoordinate(p.longitude) });
    const expected = placed.filter((p) => publicMiles(p) <= radius).map((p) => p.name);
    // the rounding must matter for this test to mean anything: some printers are in by one measure and out by the other
    expect(placed.filter((p) => haversineMiles(origin, p) <= radius !== publicMiles(p) <= radius).length).toBeGreaterThan(0);
    const found = await searchPrinters({ location: "Loveland, CO", radiusMiles: radius, search: "Edge", limit: 500 });
    expect(names(found.printers).sort()).toEqual(expected.sort());
    for (const p of found.printers) {
      const stored = placed.find((q) => q.name === p.name)!;
      expect(p.distance).toBeCloseTo(publicMiles(stored), 2);
      expect(p.location).not.toContain("Secret Lane");
    }
  });

  it("publicLocation: City, ST ZIP from what is known, else the rounded point", () => {
    const base = { city: null, state: null, zip: null, latitude: null, longitude: null };
    expect(publicLocation({ ...base, city: "Loveland", state: "CO", zip: "80537" })).toBe("Loveland, CO 80537");
    expect(publicLocation({ ...base, city: "Loveland", state: "CO" })).toBe("Loveland, CO");
    expect(publicLocation({ ...base, zip: "80537" })).toBe("80537");
    expect(publicLocation({ ...base, latitude: 40.50049, longitude: -105.2151 })).toBe("Near 40.50, -105.22");
    expect(publicLocation(base)).toBe("");
    expect(publicCoordinate(-105.0811)).toBe(-105.08);
    expect(publicCoordinate(40.3083)).toBe(40.31);
  });
});

describe("printer forms the parser refuses", () => {
  async function owned(name: string) {
    const owner = await createTestUser({ userType: "printer_owner" });
    const cookie = await sessionCookieFor(owner.id);
    await run(() =>
      addPrinterAction(
        args(
          formRequest(
            "/add-printer",
            { name, model: "Creality Ender 3 V2", location: "Fort Collins, CO", isAvailable: "on" },
            { cookie },
          ),
        ),
      ),
    );
    return { cookie, printer: await printerNamed(name) };
  }
  const fields = { name: "Parse Test", model: "Prusa MK4", location: "Loveland, CO", isAvailable: "on" };
  function multipart(url: string, cookie: string, build: (body: FormData) => void) {
    const body = new FormData();
    build(body);
    return new Request(`http://localhost:3000${url}`, { method: "POST", body, headers: { cookie } });
  }
  const raw = (url: string, cookie: string, body: string) =>
    new Request(`http://localhost:3000${url}`, {
      method: "POST",
      body,
      headers: { cookie, "content-type": "multipart/form-data; boundary=xyz" },
    });
  const bigPhoto = () => new File([new Uint8Array(5 * 1024 * 1024 + 1)], "big.png", { type: "image/png" });
  const photo = (name: string) => new File([PNG], name, { type: "image/png" });

  it("/add-printer: 413 for a photo over 5 MB, 400 for two photos, too many fields or a broken body; nothing is stored", async () => {
    const owner = await createTestUser();
    const cookie = await sessionCookieFor(owner.id);
    const cases: [Request, number, Record<string, string[]>][] = [
      [
        multipart("/add-printer", cookie, (b) => {
          for (const [k, v] of Object.entries(fields)) b.append(k, v);
          b.append("image", bigPhoto());
        }),
        413,
        { image: [PHOTO_TOO_LARGE] },
      ],
      [
        multipart("/add-printer", cookie, (b) => {
          for (const [k, v] of Object.entries(fields)) b.append(k, v);
          b.append("image", photo("a.png"));
          b.append("image", photo("b.png"));
        }),
        400,
        { image: ["Add one photo at most"] },
      ],
      [
        multipart("/add-printer", cookie, (b) => {
          for (const [k, v] of Object.entries(fields)) b.append(k, v);
          for (let i = 0; i < 1001; i++) b.append("materials", "PLA");
        }),
        400,
        { "": ["The form could not be read. Please try again."] },
      ],
      [
        multipart("/add-printer", cookie, (b) => {
          b.append("image", new File([PNG], `${"x".repeat(9000)}.png`, { type: "image/png" }));
        }),
        400,
        { "": ["The form could not be read. Please try again."] },
      ],
      [raw("/add-printer", cookie, "this is not multipart"), 400, { "": ["The form could not be read. Please try again."] }],
    ];
    for (const [request, status, error] of cases) {
      const res = await run(() => addPrinterAction(args(request)));
      expect(res.status).toBe(status);
      // no initialValue: with JavaScript the form keeps what was typed
      expect((await res.json()).result).toEqual({ status: "error", error });
    }
    const db = await getDb();
    expect(await db.select().from(printers).where(eq(printers.ownerId, owner.id))).toHaveLength(0);
  });

  it("/printers/{id}/edit: the same answers, and the printer is unchanged", async () => {
    const { cookie, printer } = await owned("Parse Edit");
    const url = `/printers/${printer.id}/edit`;
    const settings = {
      intent: "settings",
      name: "Renamed",
      location: "Fort Collins, CO",
      pricePerGram: "0.11",
      materials: "PLA",
    };
    const edit = (request: Request) => run(() => editAction(args(request, { id: String(printer.id) })));
    const big = await edit(
      multipart(url, cookie, (b) => {
        for (const [k, v] of Object.entries(settings)) b.append(k, v);
        b.append("image", bigPhoto());
      }),
    );
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ result: { status: "error", error: { image: [PHOTO_TOO_LARGE] } } });
    const two = await edit(
      multipart(url, cookie, (b) => {
        for (const [k, v] of Object.entries(settings)) b.append(k, v);
        b.append("image", photo("a.png"));
        b.append("image", photo("b.png"));
      }),
    );
    expect(two.status).toBe(400);
    const broken = await edit(raw(url, cookie, "--xyz\r\nnot a header\r\n"));
    expect(broken.status).toBe(400);
    expect((await broken.json()).result.error).toEqual({ "": ["The form could not be read. Please try again."] });
    expect(await printerNamed("Parse Edit")).toMatchObject({ name: "Parse Edit", imageKey: null });
  });
});

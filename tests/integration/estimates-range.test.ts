// Before a printer is chosen, the model page shows what the printers near the customer that can print the design charge.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { catalogueModels, categories, libraryModels, modelFiles, printers, users } from "../../db/schema";
import { loader as detailLoader } from "../../app/routes/models.$source.$id/route";
import { loader as uploadLoader } from "../../app/routes/upload/route";
import { priceRangeText } from "../../app/domain/price-range";
import { getDb } from "../../app/utils/db.server";
import { createOwnerWithPrinter } from "../setup/orders";
import { args, createTestUser, getRequest, sessionCookieFor } from "../setup/requests";

let modelId: number;
let localCookie: string;
let farCookie: string;

const page = async (cookie?: string) => {
  const data = await detailLoader(
    args(getRequest(`/models/library/${modelId}`, cookie), { source: "library", id: String(modelId) }),
  );
  return priceRangeText(data.range!);
};

beforeAll(async () => {
  const db = await getDb();
  const [category] = await db.insert(categories).values({ name: "Tools & Parts", slug: "tools-parts" }).returning();
  const creator = await createTestUser();
  const [model] = await db
    .insert(libraryModels)
    .values({
      creatorId: creator.id,
      categoryId: category.id,
      name: "Shelf Pin",
      description: "A small shelf pin.",
      license: "CC BY",
      filamentWeightGrams: 20,
      printTimeMinutes: 60,
    })
    .returning();
  modelId = model.id;
  // two printers in Berthoud, CO at $80 and $120 per kg; one in New York at $50; one offline at $10
  await createOwnerWithPrinter({ ratePerKgCents: 8000 });
  await createOwnerWithPrinter({ ratePerKgCents: 12000 });
  const far = await createOwnerWithPrinter({ ratePerKgCents: 5000, zip: "10001" });
  await db
    .update(printers)
    .set({ latitude: 40.7506, longitude: -73.9972, city: "New York", state: "NY" })
    .where(eq(printers.id, far.printer.id));
  const offline = await createOwnerWithPrinter({ ratePerKgCents: 1000 });
  await db.update(printers).set({ isAvailable: false }).where(eq(printers.id, offline.printer.id));

  const local = await createTestUser();
  await db.update(users).set({ zipCode: "80537" }).where(eq(users.id, local.id));
  localCookie = await sessionCookieFor(local.id);
  const farAway = await createTestUser();
  await db.update(users).set({ zipCode: "99501" }).where(eq(users.id, farAway.id));
  farCookie = await sessionCookieFor(farAway.id);
});

/** A 20 g, one-hour library model by a new creator, in the first category. */
async function libraryModel(values: Pick<typeof libraryModels.$inferInsert, "name" | "description" | "license">) {
  const db = await getDb();
  const [category] = await db.select().from(categories).limit(1);
  const creator = await createTestUser();
  const [model] = await db
    .insert(libraryModels)
    .values({ creatorId: creator.id, categoryId: category.id, filamentWeightGrams: 20, printTimeMinutes: 60, ...values })
    .returning();
  return model;
}

describe("the model page's estimate before a printer is chosen", () => {
  it("ranges over the available printers within the default radius of the customer's ZIP, each at its own rate", async () => {
    expect(await page(localCookie)).toBe("from $2.60 to $3.40 at 2 printers near you");
  });

  it("ranges over every available printer for a visitor, never an offline one, without claiming they are near", async () => {
    expect(await page()).toBe("from $2.00 to $3.40 at 3 printers anywhere (add your ZIP code to see those near you)");
  });

  it("names one printer's price alone", async () => {
    const db = await getDb();
    await db.update(printers).set({ isAvailable: false }).where(eq(printers.ratePerKgCents, 12000));
    expect(await page(localCookie)).toBe("$2.60 at 1 printer near you");
    await db.update(printers).set({ isAvailable: true }).where(eq(printers.ratePerKgCents, 12000));
  });

  it("falls back to the platform rate only when no printer near the customer can print it, and says so", async () => {
    expect(await page(farCookie)).toBe("$1.30 at the platform rate: no printer near you can print this yet");
  });

  it("gives no price for a model whose licence forbids paid prints: its page says why instead", async () => {
    const nc = await libraryModel({ name: "Personal Pin", description: "A pin for personal use.", license: "CC BY-NC" });
    const data = await detailLoader(
      args(getRequest(`/models/library/${nc.id}`, localCookie), { source: "library", id: String(nc.id) }),
    );
    expect(data.range).toBeNull();
    expect(data.model.licenseRefusal).toMatch(/licensed CC BY-NC, which does not allow commercial use/);
  });

  it("counts only the printers whose build volume holds the model's file", async () => {
    const db = await getDb();
    const long = await libraryModel({ name: "Long Rail", description: "A rail 300 mm long.", license: "CC BY" });
    await db.insert(modelFiles).values({
      libraryModelId: long.id,
      name: "rail.stl",
      format: "stl",
      sizeBytes: 684,
      storageKey: "models/rail.stl",
      analysis: { boundingBox: { x: 300, y: 20, z: 15 } },
    });
    const text = async () =>
      priceRangeText(
        (
          await detailLoader(
            args(getRequest(`/models/library/${long.id}`, localCookie), { source: "library", id: String(long.id) }),
          )
        ).range!,
      );
    // neither Berthoud printer (250 x 210 x 220 mm) holds 300 mm
    expect(await text()).toBe("$1.30 at the platform rate: no printer near you can print this yet");
    await db
      .update(printers)
      .set({ buildVolumeX: 350, buildVolumeY: 350, buildVolumeZ: 350, fitSmall: 350, fitMid: 350, fitLarge: 350 })
      .where(eq(printers.ratePerKgCents, 12000));
    try {
      expect(await text()).toBe("$3.40 at 1 printer near you");
    } finally {
      await db
        .update(printers)
        .set({ buildVolumeX: 250, buildVolumeY: 210, buildVolumeZ: 220, fitSmall: 210, fitMid: 220, fitLarge: 250 })
        .where(eq(printers.ratePerKgCents, 12000));
    }
  });

  it("counts only the printers that hold a catalogue model, once its weighed file's size is kept", async () => {
    const db = await getDb();
    const [long] = await db
      .insert(catalogueModels)
      .values({
        source: "thingiverse",
        sourceId: 9_300_001,
        name: "Catalogue Rail",
        license: "CC BY",
        publicUrl: "https://www.thingiverse.com/thing:9300001",
        estimatedWeightGrams: 20,
        printTimeMinutes: 60,
        weightComputedAt: new Date(),
      })
      .returning();
    const text = async () =>
      priceRangeText(
        (
          await detailLoader(
            args(getRequest(`/models/thingiverse/${long.sourceId}`, localCookie), {
              source: "thingiverse",
              id: String(long.sourceId),
            }),
          )
        ).range!,
      );
    // size unknown: every nearby printer that stocks the material counts
    expect(await text()).toBe("from $2.60 to $3.40 at 2 printers near you");
    // weighed at 300 mm long: neither Berthoud printer (250 x 210 x 220 mm) holds it
    await db.update(catalogueModels).set({ sizeXMm: 300, sizeYMm: 20, sizeZMm: 15 }).where(eq(catalogueModels.id, long.id));
    expect(await text()).toBe("$1.30 at the platform rate: no printer near you can print this yet");
  });

  it("/upload prices with the nearby printers' rates before a printer is chosen, the breakdown at the lowest", async () => {
    const data = await uploadLoader(args(getRequest("/upload", localCookie)));
    expect([...(data.nearbyRates?.rates ?? [])].sort((a, b) => a - b)).toEqual([8000, 12000]);
    expect(data.nearbyRates?.scope).toBe("near");
    expect(data.ratePerKgCents).toBe(8000);
    const far = await uploadLoader(args(getRequest("/upload", farCookie)));
    expect(far.nearbyRates).toEqual({ rates: [], scope: "near" });
    expect(far.ratePerKgCents).toBe(1500);
  });
});

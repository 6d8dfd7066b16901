// Edge input on the printer search and listings answers with a message or a sensible page, never a 500.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { printers } from "../../db/schema";
import { seedDatabase } from "../../db/seed";
import { loader as browseLoader } from "../../app/routes/browse";
import { action as printersApiAction, loader as printersApiLoader } from "../../app/routes/api.printers";
import { action as printerApiAction } from "../../app/routes/api.printers.$id";
import { loader as printersLoader } from "../../app/routes/printers._index";
import { getDb } from "../../app/utils/db.server";
import { args, createTestUser, getRequest, jsonRequest, run, sessionCookieFor } from "../setup/requests";

beforeAll(async () => {
  await seedDatabase(await getDb(), { log: () => {} });
});

describe("huge offsets and pages on the printer search", () => {
  it.each(["offset=1e20", "offset=99999999999999999999", "offset=9223372036854775808"])(
    "GET /api/printers?%s answers 400 with a message",
    async (query) => {
      const res = await run(() => printersApiLoader(args(getRequest(`/api/printers?${query}`))));
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(/^offset must be a whole number from 0 to 100000$/);
    },
  );

  it("still pages normally, and clamps a huge limit to the largest page", async () => {
    const res = await run(() => printersApiLoader(args(getRequest("/api/printers?offset=1&limit=2"))));
    expect(res.status).toBe(200);
    expect(((await res.json()) as unknown[]).length).toBe(2);
    expect((await run(() => printersApiLoader(args(getRequest("/api/printers?limit=1e20"))))).status).toBe(200);
  });

  it.each([
    ["/browse", browseLoader],
    ["/printers", printersLoader],
  ] as const)("%s?page=1e20 shows a page past the end instead of failing", async (path, loader) => {
    const res = await run(() => loader(args(getRequest(`${path}?page=1e20&available=false`))));
    expect(res.status).toBe(200);
    const page = (await res.json()) as { printers: unknown[]; total?: number };
    expect(page.printers).toEqual([]);
  });
});

describe("a printer's price per gram", () => {
  it("refuses a price that would be stored as free, on adding and on changing", async () => {
    const owner = await createTestUser();
    const cookie = await sessionCookieFor(owner.id);
    const body = { name: "Almost free", model: "Prusa MK4", location: "Loveland, CO", materials: ["PLA"] };
    const tiny = await run(() =>
      printersApiAction(args(jsonRequest("/api/printers", { ...body, pricePerGram: "0.0000001" }, { cookie }))),
    );
    expect(tiny.status).toBe(400);
    expect(((await tiny.json()) as { message: string }).message).toBe("Use at most 4 decimals for the price per gram");
    const db = await getDb();
    expect(await db.select().from(printers).where(eq(printers.name, "Almost free"))).toEqual([]);

    const ok = await run(() =>
      printersApiAction(args(jsonRequest("/api/printers", { ...body, pricePerGram: "0.0125" }, { cookie }))),
    );
    expect(ok.status).toBe(201);
    const { id } = (await ok.json()) as { id: number };
    const free = await run(() =>
      printerApiAction(
        args(jsonRequest(`/api/printers/${id}`, { pricePerGram: "0" }, { cookie, method: "PUT" }), { id: String(id) }),
      ),
    );
    expect(free.status).toBe(400);
    expect(((await free.json()) as { message: string }).message).toBe("Price per gram must be at least $0.01");
    const [stored] = await db.select({ rate: printers.ratePerKgCents }).from(printers).where(eq(printers.id, id));
    expect(stored!.rate).toBe(1250);
  });
});

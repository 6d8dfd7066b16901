import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { filamentInventory, printers, users } from "../../db/schema";
import { seedDatabase } from "../../db/seed";
import { action as printersAction, loader as printersLoader } from "../../app/routes/api.printers";
import { action as printerAction, loader as printerLoader } from "../../app/routes/api.printers.$id";
import { loader as userPrintersLoader } from "../../app/routes/api.users.$id.printers";
import type { PrinterJson } from "../../app/domain/printer-listing";
import { getDb } from "../../app/utils/db.server";
import { args, createTestUser, getRequest, jsonRequest, run, sessionCookieFor } from "../setup/requests";

const names = (list: { name: string }[]) => list.map((p) => p.name);

async function list(
  query: string,
): Promise<{ status: number; body: PrinterJson[] & { message?: string; choices?: string[] }; total: string | null }> {
  const res = await run(() => printersLoader(args(getRequest(`/api/printers${query}`))));
  return { status: res.status, body: await res.json(), total: res.headers.get("x-total-count") };
}

async function idOf(name: string) {
  const db = await getDb();
  const [row] = await db.select({ id: printers.id }).from(printers).where(eq(printers.name, name));
  return row!.id;
}

beforeAll(async () => {
  await seedDatabase(await getDb(), { log: () => {} });
});

describe("GET /api/printers", () => {
  it("answers the printers page's query: location, material, color, available, minimum build volume", async () => {
    const { status, body, total } = await list(
      "?location=Loveland%2C%20CO&material=PETG&color=Red&available=true&minBuildVolumeX=50&minBuildVolumeY=50&minBuildVolumeZ=200",
    );
    expect(status).toBe(200);
    expect(names(body)).toEqual(["Loveland Makerspace MK4", "Berthoud Print Shop", "Fort Collins Fab Lab", "Old Town Ender"]);
    expect(total).toBe("4");
    expect(body.every((p) => typeof p.distance === "number")).toBe(true);
  });

  it("applies the minimum build volume in any orientation", async () => {
    const { body } = await list("?minBuildVolumeX=10&minBuildVolumeY=10&minBuildVolumeZ=300");
    expect(names(body)).toEqual(["Fort Collins Fab Lab"]);
    const laidDown = await list("?minBuildVolumeX=300&minBuildVolumeY=10&minBuildVolumeZ=10");
    expect(names(laidDown.body)).toEqual(["Fort Collins Fab Lab"]);
  });

  it("answers the browse page's query, where material=all and available=false filter nothing", async () => {
    const { body } = await list("?material=all&available=false");
    expect(body).toHaveLength(5);
    expect(body.some((p) => !p.isAvailable)).toBe(true);
    const { body: searched } = await list("?search=ender");
    expect(names(searched)).toEqual(["Old Town Ender"]);
    expect(searched[0]).not.toHaveProperty("distance");
  });

  it("rejects bad parameters and unknown places with 400 and a message", async () => {
    expect(await list("?minBuildVolumeX=-4")).toMatchObject({
      status: 400,
      body: { message: "minBuildVolumeX must be a number of 0 or more" },
    });
    expect(await list("?available=maybe")).toMatchObject({ status: 400 });
    expect((await list("?location=Nowhere%20Special%2C%20ZZ")).body.message).toMatch(/Location not found/);
  });

  it("answers 400 with the City, ST choices for a bare name in several states, and suggestions for a misspelt one", async () => {
    const shared = await list("?location=Loveland");
    expect(shared.status).toBe(400);
    expect(shared.body.choices).toEqual(expect.arrayContaining(["Loveland, CO", "Loveland, OH"]));
    expect(shared.body.message).toMatch(/more than one state.*Loveland, CO/);
    const misspelt = await list("?location=Lovland%2C%20CO");
    expect(misspelt).toMatchObject({ status: 400, body: { choices: ["Loveland, CO"] } });
    expect(misspelt.body.message).toMatch(/Did you mean: Loveland, CO\?/);
    const unique = await list("?location=Berthoud&available=false");
    expect(unique.status).toBe(200);
    expect(unique.body.length).toBeGreaterThan(0);
  });
});

describe("GET /api/printers/{id} and /api/users/{id}/printers", () => {
  it("answers one printer, 404 for none, and an owner's printers", async () => {
    const id = await idOf("Berthoud Print Shop");
    const res = await run(() => printerLoader(args(getRequest(`/api/printers/${id}`), { id: String(id) })));
    expect(await res.json()).toMatchObject({
      id,
      name: "Berthoud Print Shop",
      pricePerGram: "0.12",
      owner: { firstName: "Bella" },
    });
    expect((await run(() => printerLoader(args(getRequest("/api/printers/99999"), { id: "99999" })))).status).toBe(404);
    const db = await getDb();
    const [fran] = await db.select().from(users).where(eq(users.username, "fran"));
    const owned = await run(() =>
      userPrintersLoader(args(getRequest(`/api/users/${fran!.id}/printers`), { id: String(fran!.id) })),
    );
    expect(names(await owned.json()).sort()).toEqual(["Fort Collins Fab Lab", "Old Town Ender"]);
    expect((await run(() => userPrintersLoader(args(getRequest("/api/users/99999/printers"), { id: "99999" })))).status).toBe(
      404,
    );
  });
});

describe("POST /api/printers", () => {
  it("needs a signed-in user and lists the printer for them, applying the model preset", async () => {
    expect((await run(() => printersAction(args(jsonRequest("/api/printers", { name: "x" }))))).status).toBe(401);
    const owner = await createTestUser({ userType: "customer" });
    const cookie = await sessionCookieFor(owner.id);
    const res = await run(() =>
      printersAction(
        args(
          jsonRequest(
            "/api/printers",
            { ownerId: owner.id, name: "API Mini", model: "bambu lab a1 mini", location: "Berthoud, CO" },
            { cookie },
          ),
        ),
      ),
    );
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created).toMatchObject({
      name: "API Mini",
      model: "Bambu Lab A1 mini",
      buildVolumeX: 180,
      pricePerGram: "0.12",
      materials: ["PLA", "PETG", "TPU"],
      isAvailable: true,
      zip: "80513",
    });
    const db = await getDb();
    const [after] = await db.select().from(users).where(eq(users.id, owner.id));
    expect(after!.userType).toBe("both");
  });

  it("refuses invalid printers with the documented messages, and adding for someone else", async () => {
    const owner = await createTestUser();
    const cookie = await sessionCookieFor(owner.id);
    const bad = await run(() =>
      printersAction(
        args(
          jsonRequest(
            "/api/printers",
            { name: "Nope", model: "Custom/Other", location: "Loveland, CO", materials: [], pricePerGram: 0.1 },
            { cookie },
          ),
        ),
      ),
    );
    expect(bad.status).toBe(400);
    const body = await bad.json();
    expect(body.errors).toMatchObject({
      buildVolumeX: ["Build volume X is required"],
      materials: ["At least one material is required"],
    });
    const other = await run(() =>
      printersAction(args(jsonRequest("/api/printers", { ownerId: owner.id + 1000, name: "Theirs" }, { cookie }))),
    );
    expect(other.status).toBe(403);
  });
});

describe("printer places in the public API", () => {
  it("GET /api/printers, /api/printers/{id} and /api/users/{id}/printers show City, ST ZIP and coordinates to 2 decimals", async () => {
    const id = await idOf("Berthoud Print Shop");
    const db = await getDb();
    const [stored] = await db.select().from(printers).where(eq(printers.id, id));
    expect(stored).toMatchObject({ location: "345 Mountain Ave, Berthoud, CO 80513", latitude: 40.3083, longitude: -105.0811 });
    const one = await run(() => printerLoader(args(getRequest(`/api/printers/${id}`), { id: String(id) })));
    const owners = await run(() =>
      userPrintersLoader(args(getRequest(`/api/users/${stored!.ownerId}/printers`), { id: String(stored!.ownerId) })),
    );
    const { body: all } = await list("?available=false&location=Berthoud%2C%20CO");
    const answers = [await one.json(), ...((await owners.json()) as PrinterJson[]), ...all];
    expect(answers.length).toBeGreaterThanOrEqual(6);
    for (const p of answers) {
      expect(p.latitude).toMatch(/^\d+\.\d\d$/);
      expect(p.longitude).toMatch(/^-\d+\.\d\d$/);
      expect(p.location).toBe([`${p.city}, ${p.state}`, p.zip].join(" "));
    }
    expect(answers[0]).toMatchObject({ location: "Berthoud, CO 80513", latitude: "40.31", longitude: "-105.08" });
    expect(JSON.stringify(answers)).not.toMatch(/345 Mountain|500 E 3rd|215 N College|40\.3083|40\.3953/);
    // the street is not searchable either
    expect((await list("?search=345%20Mountain")).body).toEqual([]);
  });
});

describe("PUT and DELETE /api/printers/{id}", () => {
  it("lets only the owner change a printer: 401 signed out, 403 for another user", async () => {
    const id = await idOf("Loveland Makerspace MK4");
    const put = (body: unknown, cookie?: string) =>
      run(() => printerAction(args(jsonRequest(`/api/printers/${id}`, body, { cookie, method: "PUT" }), { id: String(id) })));
    expect((await put({ isAvailable: false })).status).toBe(401);
    const stranger = await createTestUser();
    const denied = await put({ isAvailable: false, name: "Hijacked" }, await sessionCookieFor(stranger.id));
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({ message: "Only the printer's owner can change it" });
    const db = await getDb();
    const [unchanged] = await db.select().from(printers).where(eq(printers.id, id));
    expect(unchanged).toMatchObject({ name: "Loveland Makerspace MK4", isAvailable: true });
    const deleted = await run(async () =>
      printerAction(
        args(jsonRequest(`/api/printers/${id}`, null, { method: "DELETE", cookie: await sessionCookieFor(stranger.id) }), {
          id: String(id),
        }),
      ),
    );
    expect(deleted.status).toBe(403);
  });

  it("the owner toggles availability, edits fields, moves the printer and replaces its stock", async () => {
    const id = await idOf("Loveland Makerspace MK4");
    const db = await getDb();
    const [leo] = await db.select().from(users).where(eq(users.username, "leo"));
    const cookie = await sessionCookieFor(leo!.id);
    const put = (body: unknown) =>
      run(() => printerAction(args(jsonRequest(`/api/printers/${id}`, body, { cookie, method: "PUT" }), { id: String(id) })));
    expect(await (await put({ isAvailable: false })).json()).toMatchObject({
      isAvailable: false,
      name: "Loveland Makerspace MK4",
    });
    const res = await put({
      isAvailable: true,
      pricePerGram: "0.11",
      location: "Fort Collins, CO 80521",
      description: null,
      filamentInventory: [{ material: "PETG", color: "Red", grams: 1200 }],
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      isAvailable: true,
      pricePerGram: "0.11",
      zip: "80521",
      description: null,
      filamentInventory: [{ material: "PETG", color: "Red", grams: 1200, inStock: true }],
    });
    const wrong = await put({ filamentInventory: [{ material: "Nylon", color: "Red", grams: 5 }] });
    expect(wrong.status).toBe(400);
    const invalid = await put({ pricePerGram: "cheap" });
    expect((await invalid.json()).errors.pricePerGram).toBeTruthy();
  });

  it("the owner deletes a printer and its stock goes with it", async () => {
    const id = await idOf("Loveland Mini");
    const db = await getDb();
    const [leo] = await db.select().from(users).where(eq(users.username, "leo"));
    const res = await run(async () =>
      printerAction(
        args(jsonRequest(`/api/printers/${id}`, null, { method: "DELETE", cookie: await sessionCookieFor(leo!.id) }), {
          id: String(id),
        }),
      ),
    );
    expect(await res.json()).toEqual({ message: "Printer deleted successfully." });
    expect(await db.select().from(filamentInventory).where(eq(filamentInventory.printerId, id))).toHaveLength(0);
    expect((await run(() => printerLoader(args(getRequest(`/api/printers/${id}`), { id: String(id) })))).status).toBe(404);
  });
});

describe("where a printer is", () => {
  it("the owner reads the exact address and point; visitors and other users the public place", async () => {
    const id = await idOf("Berthoud Print Shop");
    const db = await getDb();
    const [bella] = await db.select().from(users).where(eq(users.username, "bella"));
    const read = async (cookie?: string) =>
      (await run(() => printerLoader(args(getRequest(`/api/printers/${id}`, cookie), { id: String(id) })))).json();

    const owner = await read(await sessionCookieFor(bella!.id));
    expect(owner.location).toBe("345 Mountain Ave, Berthoud, CO 80513");
    expect(owner.latitude).toBe("40.3083");

    for (const cookie of [undefined, await sessionCookieFor((await createTestUser()).id)]) {
      const visitor = await read(cookie);
      expect(visitor.location).toBe("Berthoud, CO 80513");
      expect(visitor.latitude).toBe("40.31");
    }

    const bellaCookie = await sessionCookieFor(bella!.id);
    const ownersList = await (
      await run(() =>
        userPrintersLoader(args(getRequest(`/api/users/${bella!.id}/printers`, bellaCookie), { id: String(bella!.id) })),
      )
    ).json();
    expect(ownersList.find((p: PrinterJson) => p.id === id).location).toBe("345 Mountain Ave, Berthoud, CO 80513");
  });
});

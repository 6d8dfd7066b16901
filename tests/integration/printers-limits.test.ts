// One account cannot flood the marketplace with printers or churn its listings: adding printers,
// changing them and changing their filament stock are each limited per user, on the pages and the API.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { seedDatabase } from "../../db/seed";
import { action as addPrinterAction } from "../../app/routes/add-printer";
import { action as printersApiAction } from "../../app/routes/api.printers";
import { action as printerApiAction } from "../../app/routes/api.printers.$id";
import { action as dashboardAction } from "../../app/routes/printer-dashboard";
import { action as editAction } from "../../app/routes/printers.$id.edit/route";
import { WRITE_LIMITS } from "../../app/services/write-limits.server";
import { getDb } from "../../app/utils/db.server";
import { getToast } from "../../app/utils/toast.server";
import { args, createTestUser, formRequest, jsonRequest, refusalMessages, run, sessionCookieFor } from "../setup/requests";

const saved = structuredClone(WRITE_LIMITS);
afterEach(() => Object.assign(WRITE_LIMITS, structuredClone(saved)));

beforeAll(async () => {
  await seedDatabase(await getDb(), { log: () => {} });
});

const printerJson = (name: string) => ({
  name,
  model: "Prusa MK4",
  location: "Loveland, CO",
  pricePerGram: "0.12",
  materials: ["PLA"],
});

async function owner() {
  const user = await createTestUser();
  return { user, cookie: await sessionCookieFor(user.id) };
}

async function addByApi(cookie: string, name: string) {
  return run(() => printersApiAction(args(jsonRequest("/api/printers", printerJson(name), { cookie }))));
}

describe("adding printers", () => {
  it("answers 429 with Retry-After on the API once a user has added the limit's printers; others are unaffected", async () => {
    WRITE_LIMITS.printer.limit = 2;
    const { cookie } = await owner();
    expect((await addByApi(cookie, "One")).status).toBe(201);
    expect((await addByApi(cookie, "Two")).status).toBe(201);
    const refused = await addByApi(cookie, "Three");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()).message).toMatch(/You have added many printers in a short time/);
    const other = await owner();
    expect((await addByApi(other.cookie, "Elsewhere")).status).toBe(201);
  });

  it("answers the add-printer page's form with the message and 429", async () => {
    WRITE_LIMITS.printer.limit = 1;
    const { cookie } = await owner();
    const form = (name: string) =>
      formRequest("/add-printer", { name, model: "Prusa MK4", location: "Loveland, CO", isAvailable: "on" }, { cookie });
    const first = await run(() => addPrinterAction(args(form("Page one"))));
    expect(first.status).toBe(302);
    const second = await run(() => addPrinterAction(args(form("Page two"))));
    expect(second.status).toBe(429);
    const body = (await second.json()) as { result: { error: Record<string, string[]> } };
    expect(body.result.error[""]?.[0]).toMatch(/You have added many printers/);
  });
});

describe("changing printers", () => {
  it("limits changes through the API and the dashboard's switch alike", async () => {
    WRITE_LIMITS.printerUpdate.limit = 2;
    const { cookie } = await owner();
    const created = await addByApi(cookie, "Busy bee");
    const { id } = (await created.json()) as { id: number };
    const put = () =>
      run(() =>
        printerApiAction(
          args(jsonRequest(`/api/printers/${id}`, { name: "Renamed" }, { cookie, method: "PUT" }), { id: String(id) }),
        ),
      );
    expect((await put()).status).toBe(200);
    const toggle = await run(() =>
      dashboardAction(
        args(
          formRequest(
            "/printer-dashboard",
            { intent: "toggle-availability", printerId: String(id), isAvailable: "false" },
            { cookie },
          ),
        ),
      ),
    );
    expect(toggle.status).toBe(302);
    const refused = await put();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).not.toBeNull();
    const toggleAgain = await run(() =>
      dashboardAction(
        args(
          formRequest(
            "/printer-dashboard",
            { intent: "toggle-availability", printerId: String(id), isAvailable: "true" },
            { cookie },
          ),
        ),
      ),
    );
    const toast = await getToast(
      new Request("http://localhost:3000/", {
        headers: { cookie: (toggleAgain.headers.get("set-cookie") ?? "").split(";")[0]! },
      }),
    );
    expect(toast.toast?.description).toMatch(/You have changed your printers many times/);
  });
});

describe("changing filament stock", () => {
  it("limits inventory changes on the settings page, with the message beside the row", async () => {
    WRITE_LIMITS.inventory.limit = 1;
    const { cookie } = await owner();
    const { id } = (await (await addByApi(cookie, "Stocked")).json()) as { id: number };
    const stock = (grams: string) =>
      run(() =>
        editAction(
          args(
            formRequest(
              `/printers/${id}/edit`,
              { intent: "inventory-set", rowKey: "new", material: "PLA", color: "Red", grams },
              { cookie },
            ),
            { id: String(id) },
          ),
        ),
      );
    expect((await stock("500")).status).toBe(302);
    const refused = await stock("400");
    expect(refused.status).toBe(429);
    expect((await refusalMessages(refused))[0]).toMatch(/You have changed your filament stock many times/);
  });
});

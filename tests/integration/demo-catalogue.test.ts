// The demo as shipped (npm run demo: MOCKS=true, no THINGIVERSE_TOKEN): Order Print works on the demo's catalogue models.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogueModels, printJobs } from "../../db/schema";
import { seedDatabase } from "../../db/seed";
import { action as orderModelAction } from "../../app/routes/order-model.$source.$id";
import { getDb } from "../../app/utils/db.server";
import { args, createTestUser, run, sessionCookieFor } from "../setup/requests";

let cookie: string;
const saved = { mocks: process.env.MOCKS, token: process.env.THINGIVERSE_TOKEN };
beforeAll(async () => {
  process.env.MOCKS = "true";
  delete process.env.THINGIVERSE_TOKEN;
  await seedDatabase(await getDb(), { log: () => {} });
  cookie = await sessionCookieFor((await createTestUser()).id);
});
afterAll(() => {
  process.env.MOCKS = saved.mocks;
  if (saved.token !== undefined) process.env.THINGIVERSE_TOKEN = saved.token;
});

describe("the demo's catalogue in mock mode without a token", () => {
  it("Order Print on every orderable demo catalogue model makes a draft from the model's file", async () => {
    const db = await getDb();
    const models = await db.select().from(catalogueModels);
    const orderable = models.filter((m) => !m.license.includes("NC"));
    expect(orderable.length).toBeGreaterThanOrEqual(5);
    for (const model of orderable) {
      const res = await run(() =>
        orderModelAction(
          args(
            new Request(`http://localhost/order-model/thingiverse/${model.sourceId}`, { method: "POST", headers: { cookie } }),
            {
              source: "thingiverse",
              id: String(model.sourceId),
            },
          ),
        ),
      );
      expect(res.headers.get("location"), model.name).toMatch(/^\/choose-printer\?draftId=\d+$/);
      const draftId = Number(/draftId=(\d+)/.exec(res.headers.get("location")!)![1]);
      const [draft] = await db.select().from(printJobs).where(eq(printJobs.id, draftId));
      expect(draft).toMatchObject({ status: "draft", sourceKind: "catalogue" });
      expect(draft.fileName).toMatch(/\.stl$/);
      // the model page's grams and time are those of the very file the draft was made from
      expect(draft.estimatedWeightGrams, model.name).toBe(model.estimatedWeightGrams);
      expect(draft.printTimeMinutes, model.name).toBe(model.printTimeMinutes);
    }
  });
});

// One set of default print settings: the weight a model's page shows is the weight of the draft Order Print makes.
import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { categories, printJobs } from "../../db/schema";
import { CATEGORIES } from "../../db/seed";
import { action as uploadAction } from "../../app/routes/upload-model";
import { loader as detailLoader } from "../../app/routes/models.$source.$id/route";
import { action as orderModelAction } from "../../app/routes/order-model.$source.$id";
import { getDb } from "../../app/utils/db.server";
import { args, createTestUser, formRequest, getRequest, run, sessionCookieFor } from "../setup/requests";

let cookie: string;
beforeAll(async () => {
  const db = await getDb();
  await db.insert(categories).values(CATEGORIES);
  cookie = await sessionCookieFor((await createTestUser()).id);
});

describe("default print settings", () => {
  it("the model page's weight is the weight of the draft Order Print makes", async () => {
    const bytes = readFileSync("tests/fixtures/designs/cylinder-r10-h30.stl");
    const fields = {
      name: "Round Spacer",
      description: "A plain cylinder spacer for shelves.",
      categoryId: "1",
      difficulty: "beginner",
      printTime: "",
      filamentWeight: "",
      license: "CC BY",
      tags: "",
      modelFile: new File([bytes], "spacer.stl"),
    };
    const uploaded = await run(() => uploadAction(args(formRequest("/upload-model", fields, { cookie }))));
    expect(uploaded.status).toBe(302);
    const id = Number(uploaded.headers.get("location")!.split("/").pop());

    const page = await detailLoader(args(getRequest(`/models/library/${id}`, cookie), { source: "library", id: String(id) }));
    expect(page.estimate.assumedWeight).toBe(false);

    const ordered = await run(() =>
      orderModelAction(
        args(new Request(`http://localhost/order-model/library/${id}`, { method: "POST", headers: { cookie } }), {
          source: "library",
          id: String(id),
        }),
      ),
    );
    const draftId = Number(/draftId=(\d+)/.exec(ordered.headers.get("location") ?? "")?.[1]);
    const db = await getDb();
    const [draft] = await db.select().from(printJobs).where(eq(printJobs.id, draftId));
    expect(draft.estimatedWeightGrams).toBeGreaterThan(0);
    expect(page.estimate.weightGrams).toBe(draft.estimatedWeightGrams);
    expect(page.model.filamentWeightGrams).toBe(draft.estimatedWeightGrams);
  });
});

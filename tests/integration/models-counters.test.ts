// Reading a model never depends on the writer: views and downloads are counted in memory and written
// in the background, so a held write lock neither fails nor stalls a model page or a download.
import { createClient, type Client } from "@libsql/client";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { libraryModels } from "../../db/schema";
import { seedDatabase } from "../../db/seed";
import { loader as downloadLoader } from "../../app/routes/models.library.$id.download";
import { loader as detailLoader } from "../../app/routes/models.$source.$id/route";
import { flushModelCounters, unwrittenCounts } from "../../app/services/models/counters.server";
import { getDb } from "../../app/utils/db.server";
import { args, getRequest } from "../setup/requests";

let id: number;
let other: Client;

async function stored() {
  const db = await getDb();
  const [row] = await db.select().from(libraryModels).where(eq(libraryModels.id, id));
  return { views: row!.viewCount, downloads: row!.downloadCount };
}

const page = () => detailLoader(args(getRequest(`/models/library/${id}`), { source: "library", id: String(id) }));

beforeAll(async () => {
  const db = await getDb();
  await seedDatabase(db, { log: () => {} });
  const [model] = await db.select().from(libraryModels).where(eq(libraryModels.name, "Articulated Dragon"));
  id = model!.id;
  // another connection to the same file, as a script or a second process would hold it
  other = createClient({ url: process.env.DATABASE_URL! });
});
afterAll(() => other.close());

describe("view and download counters", () => {
  it("a held write lock neither fails nor stalls a model page or a download, and the counts are written later", async () => {
    await flushModelCounters();
    const before = await stored();
    const lock = await other.transaction("write");
    try {
      const started = Date.now();
      const first = await page();
      const download = await downloadLoader(args(getRequest(`/models/library/${id}/download`), { id: String(id) }));
      expect(download.status).toBe(200);
      await download.arrayBuffer();
      const second = await page();
      expect(Date.now() - started).toBeLessThan(1500);
      expect(first.model.viewCount).toBe(before.views + 1);
      expect(second.model).toMatchObject({ viewCount: before.views + 2, downloadCount: before.downloads + 1 });

      // a flush while the lock is held gives up at once and keeps the counts
      const flushStarted = Date.now();
      await flushModelCounters();
      expect(Date.now() - flushStarted).toBeLessThan(1500);
      expect(unwrittenCounts(id)).toEqual({ views: 2, downloads: 1 });
    } finally {
      await lock.rollback();
    }
    await flushModelCounters();
    expect(unwrittenCounts(id)).toEqual({ views: 0, downloads: 0 });
    expect(await stored()).toEqual({ views: before.views + 2, downloads: before.downloads + 1 });
    expect((await page()).model.viewCount).toBe(before.views + 3);
  });
});

// The demo library models have no picture of their own: each gets a thumbnail rendered from its mesh.
import { describe, expect, it } from "vitest";
import { libraryModels } from "../../db/schema";
import { seedDatabase } from "../../db/seed";
import { getStorage } from "../../app/services/storage.server";
import { getDb } from "../../app/utils/db.server";

describe("seeded library models", () => {
  it("each has its own PNG thumbnail rendered from its mesh", async () => {
    const db = await getDb();
    await seedDatabase(db, { log: () => {} });
    const models = await db.select({ name: libraryModels.name, imageKey: libraryModels.imageKey }).from(libraryModels);
    expect(models.length).toBeGreaterThan(0);
    const images = new Set<string>();
    for (const model of models) {
      expect(model.imageKey, model.name).toMatch(/\.png$/);
      const file = await getStorage().get(model.imageKey!);
      const bytes = new Uint8Array(await file!.arrayBuffer());
      expect([...bytes.slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
      images.add(Buffer.from(bytes).toString("base64"));
    }
    // rendered from each model's own mesh, not one placeholder
    expect(images.size).toBe(models.length);
  });
});

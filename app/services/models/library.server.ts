// Library models as stored: a new upload (with its file), its file and picture, and its download count.
import { and, desc, eq, sql } from "drizzle-orm";
import { libraryModels, modelFiles } from "../../../db/schema";
import type { NewLibraryModel } from "~/domain/models";
import { getDb } from "~/utils/db.server";
import { countDownload } from "./counters.server";
import { readFromPrimaryOnMiss } from "~/utils/replica.server";

export async function createLibraryModel(input: NewLibraryModel): Promise<number> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(libraryModels)
      .values({
        creatorId: input.creatorId,
        categoryId: input.categoryId,
        name: input.name,
        description: input.description,
        difficulty: input.difficulty,
        printTimeMinutes: input.printTimeMinutes,
        filamentWeightGrams: input.filamentWeightGrams,
        supportRequired: input.supportRequired,
        license: input.license,
        tags: input.tags,
        imageKey: input.imageKey ?? null,
      })
      .returning({ id: libraryModels.id });
    if (input.file) {
      await tx.insert(modelFiles).values({ libraryModelId: row!.id, ...input.file });
    }
    return row!.id;
  });
}

/** The stored file of a library model, or null when it has none. */
export async function libraryModelFile(id: number) {
  const db = await getDb();
  // a model uploaded through another machine a moment ago
  const file = await readFromPrimaryOnMiss(async () => {
    const [found] = await db
      .select({
        name: modelFiles.name,
        format: modelFiles.format,
        storageKey: modelFiles.storageKey,
        sizeBytes: modelFiles.sizeBytes,
      })
      .from(modelFiles)
      .where(and(eq(modelFiles.libraryModelId, id), sql`${modelFiles.storageKey} IS NOT NULL`))
      .orderBy(desc(modelFiles.id))
      .limit(1);
    return found;
  });
  return file?.storageKey ? { ...file, storageKey: file.storageKey } : null;
}

/** Counts a download in memory; the counters write it in the background (see counters.server.ts). */
export function countLibraryDownload(id: number): void {
  countDownload(id);
}

export async function libraryImageKey(id: number): Promise<string | null> {
  const db = await getDb();
  // a model uploaded through another machine a moment ago; one without a picture is found all the same
  const row = await readFromPrimaryOnMiss(async () => {
    const [found] = await db
      .select({ imageKey: libraryModels.imageKey })
      .from(libraryModels)
      .where(eq(libraryModels.id, id))
      .limit(1);
    return found;
  });
  return row?.imageKey ?? null;
}

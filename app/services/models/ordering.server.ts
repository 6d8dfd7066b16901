// Ordering a model as a paid print (the server side of /order-model): whether its licence allows it, and what the order needs.
import { and, desc, eq, sql } from "drizzle-orm";
import { libraryModels, modelFiles } from "../../../db/schema";
import { AppError } from "~/domain/app-error";
import { licenseRefusal } from "~/domain/licenses";
import { MODEL_NOT_FOUND, parseModelSource, type ModelSource } from "~/domain/models";
import { parseId } from "~/utils/misc";
import { getDb } from "~/utils/db.server";
import { syncCatalogueModel, type SyncDeps } from "../catalogue/sync.server";
import { cataloguePublicUrl, findCatalogueRow } from "./shared.server";

export interface OrderableModel {
  source: ModelSource;
  /** library id, or the catalogue's sourceId */
  id: number;
  name: string;
  license: string;
  /** null when the model records none: callers apply their own default */
  weightGrams: number | null;
  printTimeMinutes: number | null;
  /** library: the stored file to print (copy storageKey onto the job) */
  file: { id: number; name: string; format: string; sizeBytes: number; storageKey: string; analysis: unknown } | null;
  /** catalogue: our catalogue_models row id and the model's page on the site */
  catalogueModelId: number | null;
  publicUrl: string | null;
}

/**
 * A model that may be ordered as a paid print, with what the order needs; catalogue licences are
 * refreshed from the site first. Throws AppError: not_found, or forbidden with the licence refusal.
 */
export async function getOrderableModel(source: string, id: number | string, deps: SyncDeps = {}): Promise<OrderableModel> {
  const modelSource = parseModelSource(source);
  const modelId = parseId(id);
  if (!modelSource || !modelId) throw new AppError("not_found", MODEL_NOT_FOUND);
  const db = await getDb();

  let model: OrderableModel;
  if (modelSource === "library") {
    const [row] = await db.select().from(libraryModels).where(eq(libraryModels.id, modelId)).limit(1);
    if (!row) throw new AppError("not_found", MODEL_NOT_FOUND);
    const [file] = await db
      .select()
      .from(modelFiles)
      .where(and(eq(modelFiles.libraryModelId, modelId), sql`${modelFiles.storageKey} IS NOT NULL`))
      .orderBy(desc(modelFiles.id))
      .limit(1);
    model = {
      source: "library",
      id: row.id,
      name: row.name,
      license: row.license,
      weightGrams: row.filamentWeightGrams > 0 ? row.filamentWeightGrams : null,
      printTimeMinutes: row.printTimeMinutes > 0 ? row.printTimeMinutes : null,
      file: file
        ? {
            id: file.id,
            name: file.name,
            format: file.format,
            sizeBytes: file.sizeBytes,
            storageKey: file.storageKey!,
            analysis: file.analysis,
          }
        : null,
      catalogueModelId: null,
      publicUrl: null,
    };
  } else {
    await syncCatalogueModel(modelId, deps);
    const row = await findCatalogueRow(modelId);
    if (!row) throw new AppError("not_found", MODEL_NOT_FOUND);
    model = {
      source: "thingiverse",
      id: row.sourceId,
      name: row.name,
      license: row.license,
      weightGrams: row.estimatedWeightGrams && row.estimatedWeightGrams > 0 ? row.estimatedWeightGrams : null,
      printTimeMinutes: row.printTimeMinutes && row.printTimeMinutes > 0 ? row.printTimeMinutes : null,
      file: null,
      catalogueModelId: row.id,
      publicUrl: cataloguePublicUrl(row),
    };
  }
  const refusal = licenseRefusal(model.license);
  if (refusal) throw new AppError("forbidden", refusal);
  return model;
}

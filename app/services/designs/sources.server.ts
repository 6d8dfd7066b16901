// Drafts made from models: a library model's stored file, or a catalogue model's printable file
// fetched from the model-sharing site under the same size cap and checks as an upload.
import { and, desc, eq, gt } from "drizzle-orm";
import { printJobs, type PrintJob } from "../../../db/schema";
import { DESIGN_DEFAULTS, DesignSettingsSchema } from "~/domain/design-settings";
import { AppError, isAppError } from "~/domain/app-error";
import type { ModelSource } from "~/domain/models";
import { CatalogueUnavailableError, getCatalogueSource, pickPrintableFile } from "~/services/catalogue/index.server";
import { getOrderableModel } from "~/services/models/ordering.server";
import { getDb } from "~/utils/db.server";
import { readStoredFile } from "./analysis.server";
import { hitModelDraftLimit, modelDraftLimitMessage } from "./quotas.server";
import { assertRoomForDraft, createDraft } from "./draft-writes.server";
import { MAX_DESIGN_BYTES } from "~/services/storage.server";

/** Ordering the same model twice within this window reuses the draft (a refresh or prefetch must not pile up drafts). */
const REUSE_WINDOW_MS = 10 * 60 * 1000;

async function recentDraftFor(userId: number, kind: "library" | "catalogue", modelId: number): Promise<PrintJob | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(printJobs)
    .where(
      and(
        eq(printJobs.customerId, userId),
        eq(printJobs.status, "draft"),
        eq(printJobs.sourceKind, kind),
        eq(printJobs.sourceModelId, modelId),
        gt(printJobs.createdAt, new Date(Date.now() - REUSE_WINDOW_MS)),
      ),
    )
    .orderBy(desc(printJobs.createdAt))
    .limit(1);
  return row ?? null;
}

const defaultSettings = () => DesignSettingsSchema.parse({ ...DESIGN_DEFAULTS, intent: "submit", specialInstructions: "" });

/**
 * The draft flow's own failures as AppError, so the order page and both API calls answer them
 * through the one mapper. Anything else goes on up as it is.
 */
function asAppError(error: unknown): unknown {
  if (isAppError(error)) return error;
  if (error instanceof CatalogueUnavailableError) {
    return new AppError("unavailable", "The model catalogue is not answering right now. Please try again later.", {
      cause: error,
    });
  }
  return error;
}

async function draftFromBytes(
  userId: number,
  bytes: Uint8Array,
  fileName: string,
  kind: "library" | "catalogue",
  modelId: number,
) {
  const { job } = await createDraft(userId, { bytes, fileName }, defaultSettings(), { source: { kind, modelId } });
  return job;
}

/**
 * Before a new draft is made from a model (a file copied or downloaded, then analysed): the customer's hourly
 * quota of model drafts, and room among their saved drafts. A reused recent draft costs neither.
 */
async function allowNewModelDraft(userId: number): Promise<void> {
  await assertRoomForDraft(userId);
  const limit = await hitModelDraftLimit(userId);
  if (!limit.allowed) {
    throw new AppError("rate_limited", modelDraftLimitMessage(limit.retryAfterSeconds), {
      retryAfterSeconds: limit.retryAfterSeconds,
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Library models
// ---------------------------------------------------------------------------------------------

async function libraryDraft(userId: number, modelId: number): Promise<PrintJob> {
  const model = await getOrderableModel("library", modelId);
  const reused = await recentDraftFor(userId, "library", model.id);
  if (reused) return reused;
  if (!model.file) throw new AppError("not_found", "This model has no printable file yet.");
  await allowNewModelDraft(userId);
  const bytes = await readStoredFile(model.file.storageKey);
  if (!bytes) throw new AppError("not_found", "This model's file is missing from storage.");
  return draftFromBytes(userId, bytes, model.file.name, "library", model.id);
}

// ---------------------------------------------------------------------------------------------
// Catalogue models
// ---------------------------------------------------------------------------------------------

/** Catalogue drafts record the model's id on the source site, the id its page (/models/thingiverse/{id}) uses. */
async function catalogueDraft(userId: number, thingId: number): Promise<PrintJob> {
  // refreshes the licence from the site before deciding (ADR 004)
  const model = await getOrderableModel("thingiverse", thingId);
  const reused = await recentDraftFor(userId, "catalogue", model.id);
  if (reused) return reused;
  await allowNewModelDraft(userId);
  const source = getCatalogueSource();
  if (!source)
    throw new AppError("unavailable", "The model catalogue is not available right now, so this model cannot be ordered.");
  const file = pickPrintableFile(await source.getFiles(model.id));
  if (!file) throw new AppError("not_found", "This model has no STL, OBJ or 3MF file to print.");
  const bytes = await source.downloadFile(file, { maxBytes: MAX_DESIGN_BYTES });
  return draftFromBytes(userId, bytes, file.name, "catalogue", model.id);
}

async function failingAsAppError<T>(flow: () => Promise<T>): Promise<T> {
  try {
    return await flow();
  } catch (error) {
    throw asAppError(error);
  }
}

/** A draft from a library model's stored file. Throws AppError. */
export function draftFromLibraryModel(userId: number, modelId: number): Promise<PrintJob> {
  return failingAsAppError(() => libraryDraft(userId, modelId));
}

/** A draft from a catalogue model's printable file, downloaded from the site. Throws AppError. */
export function draftFromCatalogueModel(userId: number, thingId: number): Promise<PrintJob> {
  return failingAsAppError(() => catalogueDraft(userId, thingId));
}

/** One entry for the order-model page and both API calls. */
export async function draftFromModel(userId: number, source: ModelSource, modelId: number): Promise<PrintJob> {
  return source === "library" ? draftFromLibraryModel(userId, modelId) : draftFromCatalogueModel(userId, modelId);
}

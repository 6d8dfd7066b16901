// Writing drafts: analyse and store a design, then insert or update its row with the settings and the price
// worked out on the server; an update only lands on the version of the row its request read.
import { and, count, eq } from "drizzle-orm";
import { printJobs, type PrintJob } from "../../../db/schema";
import { AppError } from "~/domain/app-error";
import { qualityForLayerHeight, type DesignSettings } from "~/domain/design-settings";
import { cleanFileName } from "~/domain/file-name";
import type { DesignSourceKind } from "~/domain/models";
import { getDb } from "~/utils/db.server";
import {
  analyzeDesign,
  isDesignRejection,
  readStoredFile,
  removeStoredFiles,
  storeDesign,
  type AnalyzedDesign,
  type DesignSource,
  type StoredAnalysis,
} from "./analysis.server";
import { LIMITS } from "./quotas.server";
import { figureColumns, getOwnDraft, quoteDraft, refigureJob, type FigureColumns, type PrinterRate } from "./drafts.server";
import { assertSomePrinterHolds } from "~/services/printers/fit.server";

/** The engine's reading (measured at the design's units and scale) and the order's figures for its copies (decision 038). */
function analysisColumns(analysis: StoredAnalysis, settings: DesignSettings) {
  return { analysis, ...figureColumns(analysis, settings.quantity) };
}

function settingsColumns(settings: DesignSettings, printerId: number | null) {
  return {
    material: settings.material,
    filamentColor: settings.filamentColor,
    layerHeight: settings.layerHeight,
    quality: qualityForLayerHeight(settings.layerHeight),
    infillPercent: settings.infill,
    supports: settings.supports,
    numberOfColors: settings.numberOfColors,
    quantity: settings.quantity,
    units: settings.units,
    scalePercent: settings.scalePercent,
    deliveryMethod: settings.deliveryMethod,
    specialInstructions: settings.specialInstructions ? settings.specialInstructions : null,
    printerId,
  };
}

function priceColumns(figures: FigureColumns, settings: DesignSettings, ratePerKgCents: number | null) {
  const quote = quoteDraft({
    weightGrams: figures.estimatedWeightGrams,
    printTimeMinutes: figures.printTimeMinutes,
    numberOfColors: settings.numberOfColors,
    quantity: settings.quantity,
    ratePerKgCents,
  });
  return { totalCostCents: quote.customerPays, printerProfitCents: quote.printerProfit, platformFeeCents: quote.platformFee };
}

/** A design to store: its bytes (a model's file, a download), or an upload waiting on disk. */
export type NewDesignFile = { fileName: string } & ({ bytes: Uint8Array } | { path: string; size: number });

const sourceOf = (file: NewDesignFile): DesignSource => ("bytes" in file ? file.bytes : { path: file.path, size: file.size });
const sizeOf = (file: NewDesignFile) => ("bytes" in file ? file.bytes.byteLength : file.size);

export interface DraftSource {
  kind: DesignSourceKind;
  modelId: number | null;
}

/** Analyses and stores the file, then inserts the draft; files are removed again if the insert fails. */
export async function createDraft(
  userId: number,
  file: NewDesignFile,
  settings: DesignSettings,
  options: { printer?: PrinterRate | null; source?: DraftSource } = {},
): Promise<{ job: PrintJob; design: AnalyzedDesign }> {
  await assertRoomForDraft(userId);
  const design = await analyzeDesign(sourceOf(file), file.fileName, settings, { owner: userId });
  const columns = analysisColumns(design.analysis, settings);
  await assertSomePrinterHolds(columns, settings);
  const stored = await storeDesign(sourceOf(file), file.fileName, design);
  try {
    const db = await getDb();
    const [job] = await db
      .insert(printJobs)
      .values({
        customerId: userId,
        status: "draft",
        fileName: cleanFileName(file.fileName),
        fileSize: sizeOf(file),
        fileFormat: design.format,
        fileKey: stored.fileKey,
        previewKey: stored.previewKey,
        sourceKind: options.source?.kind ?? "upload",
        sourceModelId: options.source?.modelId ?? null,
        ...settingsColumns(settings, options.printer?.id ?? null),
        ...columns,
        ...priceColumns(columns, settings, options.printer?.ratePerKgCents ?? null),
      })
      .returning();
    return { job, design };
  } catch (error) {
    await removeStoredFiles(stored.fileKey, stored.previewKey);
    throw error;
  }
}

/** The draft was ordered or deleted meanwhile (another tab, a double submit). */
const draftGone = () => new AppError("conflict", "This draft no longer exists or has already been submitted.");
/** The draft was written by another request after this one read it. */
const draftChanged = () => new AppError("conflict", "This draft changed in another tab. Reload and try again.");

/**
 * Refuses a new draft (AppError "conflict") when the customer already keeps LIMITS.draftsPerCustomer. A count, then the insert:
 * requests running at the same moment can pass it together, so it is a soft cap (each is rate limited too).
 */
export async function assertRoomForDraft(userId: number): Promise<void> {
  const db = await getDb();
  const [row] = await db
    .select({ drafts: count() })
    .from(printJobs)
    .where(and(eq(printJobs.customerId, userId), eq(printJobs.status, "draft")));
  if ((row?.drafts ?? 0) >= LIMITS.draftsPerCustomer) {
    throw new AppError("conflict", `You have ${LIMITS.draftsPerCustomer} saved drafts. Delete some before saving more.`);
  }
}

/** A version stamp that always moves forward, even for two writes in the same millisecond. */
function nextUpdatedAt(previous: Date): Date {
  return new Date(Math.max(Date.now(), previous.getTime() + 1));
}

const analysisInputsChanged = (job: PrintJob, s: DesignSettings) =>
  job.material !== s.material ||
  job.infillPercent !== s.infill ||
  job.layerHeight !== s.layerHeight ||
  job.supports !== s.supports ||
  job.units !== s.units ||
  job.scalePercent !== s.scalePercent;

/**
 * Updates settings (and the file, when a new one came); weight and time are re-measured whenever they depend on a change.
 * `existing` is the row as this request read it, before its (possibly slow) body: the write only lands if the row
 * still has that version (updated_at), so a stale request cannot store a price worked out for another file.
 */
export async function updateDraft(
  existing: PrintJob,
  settings: DesignSettings,
  options: { file?: NewDesignFile | null; printer?: PrinterRate | null },
): Promise<{ job: PrintJob; design: AnalyzedDesign | null }> {
  let design: AnalyzedDesign | null = null;
  let stored: { fileKey: string; previewKey: string | null } | null = null;
  if (options.file) {
    design = await analyzeDesign(sourceOf(options.file), options.file.fileName, settings, { owner: existing.customerId });
    stored = await storeDesign(sourceOf(options.file), options.file.fileName, design);
  } else if (existing.fileKey && analysisInputsChanged(existing, settings)) {
    const bytes = await readStoredFile(existing.fileKey);
    if (bytes) {
      try {
        design = await analyzeDesign(bytes, existing.fileName, settings, { preview: false, owner: existing.customerId });
      } catch (error) {
        // the stored file was accepted once; keep the old measurements rather than lock the draft
        if (!isDesignRejection(error)) throw error;
      }
    }
  }

  const figures = design ? analysisColumns(design.analysis, settings) : refigureJob(existing, { ...settings });
  try {
    await assertSomePrinterHolds(figures, settings);
  } catch (error) {
    if (stored) await removeStoredFiles(stored.fileKey, stored.previewKey);
    throw error;
  }
  const values = {
    ...settingsColumns(settings, options.printer?.id ?? null),
    ...figures,
    ...(stored && options.file
      ? {
          fileKey: stored.fileKey,
          previewKey: stored.previewKey,
          fileName: cleanFileName(options.file.fileName),
          fileSize: sizeOf(options.file),
          fileFormat: design!.format,
          sourceKind: "upload" as const,
          sourceModelId: null,
        }
      : {}),
    ...priceColumns(figures, settings, options.printer?.ratePerKgCents ?? null),
    updatedAt: nextUpdatedAt(existing.updatedAt),
  };

  const db = await getDb();
  let updated: PrintJob | undefined;
  try {
    // guarded: a draft submitted in another tab meanwhile is not rewritten, nor one another request changed
    // since this one read it (its file, and so its weight and price, may be different now)
    [updated] = await db
      .update(printJobs)
      .set(values)
      .where(
        and(
          eq(printJobs.id, existing.id),
          eq(printJobs.customerId, existing.customerId),
          eq(printJobs.status, "draft"),
          eq(printJobs.updatedAt, existing.updatedAt),
        ),
      )
      .returning();
  } catch (error) {
    if (stored) await removeStoredFiles(stored.fileKey, stored.previewKey);
    throw error;
  }
  if (!updated) {
    if (stored) await removeStoredFiles(stored.fileKey, stored.previewKey);
    throw (await getOwnDraft(existing.customerId, existing.id)) ? draftChanged() : draftGone();
  }
  if (stored) await removeStoredFiles(existing.fileKey, existing.previewKey);
  return { job: updated, design };
}

/** Deletes one of the customer's drafts and its files; false when there is no such draft. */
export async function deleteDraft(userId: number, draftId: number): Promise<boolean> {
  const db = await getDb();
  const deleted = await db
    .delete(printJobs)
    .where(and(eq(printJobs.id, draftId), eq(printJobs.customerId, userId), eq(printJobs.status, "draft")))
    .returning({ fileKey: printJobs.fileKey, previewKey: printJobs.previewKey });
  if (deleted.length === 0) return false;
  await removeStoredFiles(deleted[0].fileKey, deleted[0].previewKey);
  return true;
}

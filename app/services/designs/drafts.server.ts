// Drafts (print_jobs in status 'draft') as every route reads them: only the owner's, priced with the one
// price engine (the platform's default rate until a printer is chosen).
import { and, desc, eq } from "drizzle-orm";
import { printers, printJobs, type PrintJob, type User } from "../../../db/schema";
import type { DesignAnalysis, DesignSettings } from "~/domain/design-settings";
import { orderFigures, scaleFactor, type DesignScale } from "~/domain/design-scale";
import { roundGrams } from "~/domain/mesh";
import { DEFAULT_RATE_PER_KG_CENTS, quotePrice, type PriceQuote } from "~/domain/pricing";
import { getDb } from "~/utils/db.server";
import { getStorage } from "~/services/storage.server";
import { readFromPrimaryOnMiss } from "~/utils/replica.server";

export async function getOwnDraft(userId: number, draftId: number): Promise<PrintJob | null> {
  const job = await getOwnJob(userId, draftId);
  return job?.status === "draft" ? job : null;
}

/** The draft a query names, if it is the signed-in customer's: no user, a bad id or anyone else's draft gives null. */
export async function findOwnDraft(user: Pick<User, "id"> | null, draftId: number | null): Promise<PrintJob | null> {
  if (!user || !draftId || !Number.isSafeInteger(draftId)) return null;
  return getOwnDraft(user.id, draftId);
}

/** Any job of this customer (a preview or file stays the customer's after the draft is ordered). */
export async function getOwnJob(userId: number, jobId: number): Promise<PrintJob | null> {
  const db = await getDb();
  // a draft saved, or an order placed, through another machine a moment ago
  return readFromPrimaryOnMiss(async () => {
    const [row] = await db
      .select()
      .from(printJobs)
      .where(and(eq(printJobs.id, jobId), eq(printJobs.customerId, userId)))
      .limit(1);
    return row;
  });
}

/** A stored file of one of the customer's jobs (the design or its preview) with the job, or null for anyone else. */
export async function getOwnJobFile(
  user: Pick<User, "id"> | null,
  jobIdParam: string | undefined,
  key: "fileKey" | "previewKey",
) {
  const id = Number(jobIdParam);
  if (!user || !Number.isSafeInteger(id) || id <= 0) return null;
  const job = await getOwnJob(user.id, id);
  const storageKey = job?.[key];
  if (!job || !storageKey) return null;
  const file = await getStorage().get(storageKey);
  return file ? { job, file } : null;
}

export async function listDrafts(userId: number): Promise<PrintJob[]> {
  const db = await getDb();
  return db
    .select()
    .from(printJobs)
    .where(and(eq(printJobs.customerId, userId), eq(printJobs.status, "draft")))
    .orderBy(desc(printJobs.updatedAt), desc(printJobs.id));
}

export interface PrinterRate {
  id: number;
  name: string;
  ratePerKgCents: number;
  isAvailable: boolean;
}

export async function getPrinterRate(printerId: number): Promise<PrinterRate | null> {
  const db = await getDb();
  const [row] = await db
    .select({ id: printers.id, name: printers.name, ratePerKgCents: printers.ratePerKgCents, isAvailable: printers.isAvailable })
    .from(printers)
    .where(eq(printers.id, printerId))
    .limit(1);
  return row ?? null;
}

/** The draft's price: the platform default rate until a printer is chosen, then that printer's rate. */
export function quoteDraft(input: {
  weightGrams: number;
  numberOfColors: number;
  printTimeMinutes: number;
  quantity: number;
  ratePerKgCents?: number | null;
}): PriceQuote {
  return quotePrice({
    weightGrams: Math.max(0, input.weightGrams),
    colors: input.numberOfColors,
    printTimeMinutes: input.printTimeMinutes,
    quantity: input.quantity,
    ratePerKgCents: input.ratePerKgCents ?? DEFAULT_RATE_PER_KG_CENTS,
  });
}

export type FigureColumns = Pick<
  PrintJob,
  "estimatedWeightGrams" | "printTimeMinutes" | "boundingBoxX" | "boundingBoxY" | "boundingBoxZ"
>;

/** The stored figures of an order of `quantity` copies; the analysis was measured at the design's units and scale. */
export function figureColumns(analysis: DesignAnalysis, quantity: number): FigureColumns {
  const figures = orderFigures(analysis, quantity);
  return {
    estimatedWeightGrams: figures.weightGrams,
    printTimeMinutes: figures.printTimeMinutes,
    boundingBoxX: figures.box?.x ?? null,
    boundingBoxY: figures.box?.y ?? null,
    boundingBoxZ: figures.box?.z ?? null,
  };
}

/**
 * A job's figures at other copies, units or scale without measuring again: from its analysis when only the copies
 * change, else its columns with lengths ×s and weight and time ×s³ (a job whose file cannot be read again).
 */
export function refigureJob(job: PrintJob, next: DesignScale & { quantity: number }): FigureColumns {
  const analysis = job.analysis as DesignAnalysis | null;
  const s = scaleFactor(job.fileFormat, next) / scaleFactor(job.fileFormat, job);
  if (analysis && s === 1) return figureColumns(analysis, next.quantity);
  const perCopy = (s * s * s) / job.quantity;
  const box = (v: number | null) => (v === null ? null : v * s);
  return {
    estimatedWeightGrams: roundGrams(job.estimatedWeightGrams * perCopy * next.quantity),
    printTimeMinutes: Math.max(1, Math.round(job.printTimeMinutes * perCopy)) * next.quantity,
    boundingBoxX: box(job.boundingBoxX),
    boundingBoxY: box(job.boundingBoxY),
    boundingBoxZ: box(job.boundingBoxZ),
  };
}

export function draftPreviewUrl(job: Pick<PrintJob, "id" | "previewKey">): string | null {
  return job.previewKey ? `/drafts/${job.id}/preview.png` : null;
}

/** /printers with the design's needs: the real bounding box (rounded up to whole mm), not a fixed 50 mm. */
export function printersUrlFor(job: PrintJob): string {
  const params = new URLSearchParams({ material: job.material, color: job.filamentColor });
  if (job.boundingBoxX !== null && job.boundingBoxY !== null && job.boundingBoxZ !== null) {
    params.set("minX", String(Math.ceil(job.boundingBoxX)));
    params.set("minY", String(Math.ceil(job.boundingBoxY)));
    params.set("minZ", String(Math.ceil(job.boundingBoxZ)));
  }
  params.set("weight", String(roundGrams(job.estimatedWeightGrams)));
  params.set("jobId", String(job.id));
  return `/printers?${params}`;
}

export function choosePrinterUrlFor(jobId: number): string {
  return `/choose-printer?draftId=${jobId}`;
}

/** Settings of a stored draft in the form's terms (the page's default values). */
export function draftSettings(job: PrintJob): Record<keyof Omit<DesignSettings, "intent" | "printerId">, string> {
  return {
    material: job.material,
    filamentColor: job.filamentColor,
    layerHeight: String(job.layerHeight),
    infill: String(job.infillPercent),
    supports: job.supports,
    numberOfColors: String(job.numberOfColors),
    quantity: String(job.quantity),
    units: job.units,
    scalePercent: String(job.scalePercent),
    deliveryMethod: job.deliveryMethod,
    specialInstructions: job.specialInstructions ?? "",
  };
}

// Drafts (print_jobs in status 'draft'): reading the upload form as it streams, analysing and storing the
// design, pricing it with the one price engine, and the owner-scoped reads and writes every route shares.
import { parseWithZod } from "@conform-to/zod";
import type { SubmissionResult } from "@conform-to/react";
import {
  FormDataParseError,
  MaxFileSizeExceededError,
  MaxFilesExceededError,
  MaxTotalSizeExceededError,
  parseFormData,
} from "@remix-run/form-data-parser";
import { and, count, desc, eq } from "drizzle-orm";
import { printers, printJobs, type PrintJob, type User } from "../../db/schema";
import {
  DESIGN_DEFAULTS,
  DesignSettingsSchema,
  MESSAGES,
  qualityForLayerHeight,
  type DesignSettings,
} from "~/components/design-settings";
import { roundGrams } from "~/domain/mesh";
import { centsToDollarString } from "~/domain/money";
import { DEFAULT_RATE_PER_KG_CENTS, quotePrice, type PriceQuote } from "~/domain/pricing";
import { getDb } from "~/utils/db.server";
import { hitRateLimit, minutesText, type RateLimitResult } from "~/utils/rate-limit.server";
import { createToastHeader, type ToastInput } from "~/utils/toast.server";
import {
  AnalysisBusyError,
  analyseDesign,
  cleanFileName,
  DesignRejectedError,
  readStoredFile,
  removeStoredFiles,
  storeDesign,
  type AnalysedDesign,
  type StoredAnalysis,
} from "./design-analysis.server";
import { getStorage, MAX_DESIGN_BYTES } from "./storage.server";

export const FILE_FIELD = "file";
/** Uploads are analysed on the server, which costs CPU: a generous cap per customer. */
export const UPLOADS_PER_HOUR = 60;
const ONE_HOUR_MS = 60 * 60 * 1000;

/** Per-customer caps on work and storage (tests lower them). */
export const LIMITS = {
  /** design files posted to /upload and the upload/draft API calls */
  designUploadsPerHour: UPLOADS_PER_HOUR,
  /** library models posted to /upload-model and POST /api/models */
  modelUploadsPerHour: 20,
  /** drafts made from library or catalogue models (each one copies or downloads and analyses a file) */
  modelDraftsPerHour: 30,
  /** drafts a customer may keep */
  draftsPerCustomer: 200,
};

/** Counts one library-model upload of this customer (/upload-model, POST /api/models). */
export function hitModelUploadLimit(userId: number): Promise<RateLimitResult> {
  return hitRateLimit(`model-upload:${userId}`, LIMITS.modelUploadsPerHour, ONE_HOUR_MS);
}

export function modelUploadLimitMessage(retryAfterSeconds: number): string {
  return `You have uploaded many models in the last hour. Please try again in ${minutesText(retryAfterSeconds)}.`;
}

/** Counts one draft made from a model by this customer. */
export function hitModelDraftLimit(userId: number): Promise<RateLimitResult> {
  return hitRateLimit(`model-draft:${userId}`, LIMITS.modelDraftsPerHour, ONE_HOUR_MS);
}

export function modelDraftLimitMessage(retryAfterSeconds: number): string {
  return `You have ordered many models in the last hour. Please try again in ${minutesText(retryAfterSeconds)}.`;
}

const ONE_MIB = 1024 * 1024;
/** Bytes of the body kept from its start and its end, to recover the small settings fields when the file is refused. */
const KEEP_BYTES = 64 * 1024;
/** After refusing a file, read at most this much more so the browser receives the answer instead of a reset connection. */
const DRAIN_LIMIT_BYTES = 80 * ONE_MIB;

export type DesignIntent = "save" | "submit";

// ---------------------------------------------------------------------------------------------
// Reading the multipart form
// ---------------------------------------------------------------------------------------------

export class DesignFormError extends Error {
  readonly status: 400 | 413;
  /** the text fields that could still be recovered, so the page can keep the settings */
  readonly fields: FormData;
  constructor(message: string, status: 400 | 413, fields: FormData) {
    super(message);
    this.name = "DesignFormError";
    this.status = status;
    this.fields = fields;
  }
}

export interface DesignForm {
  fields: FormData;
  file: File | null;
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  outer: for (let i = from; i <= haystack.length - needle.length; i++) {
    for (let k = 0; k < needle.length; k++) if (haystack[i + k] !== needle[k]) continue outer;
    return i;
  }
  return -1;
}

/** The complete text parts found in a piece of a multipart body (a file part, or a cut one, is skipped). */
export function textPartsIn(bytes: Uint8Array, boundary: string, into: FormData): void {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const delimiter = encoder.encode(`--${boundary}`);
  const headerEnd = encoder.encode("\r\n\r\n");
  const starts: number[] = [];
  for (let at = indexOf(bytes, delimiter, 0); at >= 0; at = indexOf(bytes, delimiter, at + delimiter.length)) starts.push(at);
  // a part counts only when the next delimiter closes it
  for (let k = 0; k + 1 < starts.length; k++) {
    const partStart = starts[k] + delimiter.length + 2;
    const partEnd = starts[k + 1] - 2;
    if (partEnd <= partStart) continue;
    const part = bytes.subarray(partStart, partEnd);
    const split = indexOf(part, headerEnd, 0);
    if (split < 0) continue;
    const headers = decoder.decode(part.subarray(0, split));
    const disposition = /content-disposition:[^\r\n]*/i.exec(headers)?.[0] ?? "";
    if (/filename\*?=/i.test(disposition)) continue;
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (!name || name === FILE_FIELD) continue;
    into.append(name, decoder.decode(part.subarray(split + headerEnd.length)));
  }
}

async function drainKeepingTail(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<Uint8Array> {
  const kept: Uint8Array[] = [];
  let keptBytes = 0;
  let drained = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true as const, value: undefined }));
    if (done || !value) break;
    drained += value.byteLength;
    kept.push(value);
    keptBytes += value.byteLength;
    while (kept.length > 1 && keptBytes - kept[0].byteLength >= KEEP_BYTES) keptBytes -= kept.shift()!.byteLength;
    if (drained > DRAIN_LIMIT_BYTES) {
      void reader.cancel().catch(() => {});
      return new Uint8Array(0);
    }
  }
  const all = concat(kept);
  return all.subarray(Math.max(0, all.length - KEEP_BYTES));
}

/**
 * Parses the form as it streams: the file part is refused the moment it passes 50 MB, and only the
 * `file` field may carry a file. Throws DesignFormError with what it could recover of the other fields.
 */
export async function readDesignForm(request: Request): Promise<DesignForm> {
  const contentType = request.headers.get("content-type") ?? "";
  const boundaryMatch = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = boundaryMatch?.[1] ?? boundaryMatch?.[2];
  const limits = {
    maxFiles: 1,
    maxFileSize: MAX_DESIGN_BYTES,
    maxTotalSize: MAX_DESIGN_BYTES + ONE_MIB,
    maxParts: 100,
    maxHeaderSize: 8 * 1024,
  };

  if (!request.body || !boundary || !/^multipart\/form-data/i.test(contentType)) {
    try {
      const fields = await parseFormData(request, { ...limits, maxTotalSize: ONE_MIB });
      fields.delete(FILE_FIELD);
      return { fields, file: null };
    } catch {
      throw new DesignFormError("Send the design as a multipart/form-data form.", 400, new FormData());
    }
  }

  const source = request.body.getReader();
  const head: Uint8Array[] = [];
  let headBytes = 0;
  const counted = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await source.read();
      if (done) return controller.close();
      if (headBytes < KEEP_BYTES) {
        head.push(value.subarray(0, KEEP_BYTES - headBytes));
        headBytes += Math.min(value.byteLength, KEEP_BYTES - headBytes);
      }
      controller.enqueue(value);
    },
  });
  const proxied = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: counted,
    duplex: "half",
  } as RequestInit & { duplex: "half" });

  try {
    const fields = await parseFormData(proxied, limits, (upload) => {
      if (upload.fieldName !== FILE_FIELD) return null;
      // a file input left empty still sends an empty part without a name (the parser calls it "file-upload")
      if (upload.size === 0 && (upload.name === "" || upload.name === "file-upload")) return null;
      return upload;
    });
    const value = fields.get(FILE_FIELD);
    fields.delete(FILE_FIELD);
    return { fields, file: value instanceof File ? value : null };
  } catch (error) {
    const tooLarge = error instanceof MaxFileSizeExceededError || error instanceof MaxTotalSizeExceededError;
    // drain through the parser's own stream: a second reader on the Node body can stall its pause/resume pump
    const rest = proxied.body && !proxied.body.locked ? proxied.body.getReader() : source;
    const tail = await drainKeepingTail(rest);
    const fields = new FormData();
    textPartsIn(concat(head), boundary, fields);
    textPartsIn(tail, boundary, fields);
    if (tooLarge) throw new DesignFormError(MESSAGES.tooLarge, 413, fields);
    if (error instanceof MaxFilesExceededError)
      throw new DesignFormError("Please upload one design file at a time.", 400, fields);
    if (error instanceof FormDataParseError || (error instanceof Error && /multipart|header/i.test(error.name))) {
      throw new DesignFormError("The upload could not be read. Please try again.", 400, fields);
    }
    throw error;
  }
}

/** Document 001's API sends the settings as printSettings JSON; the page sends flat fields. Flat fields win. */
export function flattenPrintSettings(fields: FormData): FormData {
  const raw = fields.get("printSettings");
  if (typeof raw !== "string" || raw.trim() === "") return fields;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return fields;
  }
  if (!parsed || typeof parsed !== "object") return fields;
  const settings = parsed as Record<string, unknown>;
  const setIfMissing = (name: string, value: unknown) => {
    if (fields.has(name) || value === undefined || value === null) return;
    fields.set(name, String(value));
  };
  const supports = settings.supports;
  setIfMissing("supports", typeof supports === "boolean" ? (supports ? "yes" : "no") : supports);
  setIfMissing("infill", settings.infill ?? settings.infillDensity);
  setIfMissing("numberOfColors", settings.numberOfColors);
  if (settings.layerHeight !== undefined) setIfMissing("layerHeight", settings.layerHeight);
  else if (typeof settings.quality === "string") {
    const byQuality: Record<string, number> = { draft: 0.3, normal: 0.2, fine: 0.1, ultra: 0.1 };
    setIfMissing("layerHeight", byQuality[settings.quality.toLowerCase()]);
  }
  return fields;
}

// ---------------------------------------------------------------------------------------------
// Reads
// ---------------------------------------------------------------------------------------------

export async function getOwnDraft(userId: number, draftId: number): Promise<PrintJob | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(printJobs)
    .where(and(eq(printJobs.id, draftId), eq(printJobs.customerId, userId), eq(printJobs.status, "draft")))
    .limit(1);
  return row ?? null;
}

/** The draft a query names, if it is the signed-in customer's: no user, a bad id or anyone else's draft gives null. */
export async function findOwnDraft(user: Pick<User, "id"> | null, draftId: number | null): Promise<PrintJob | null> {
  if (!user || !draftId || !Number.isSafeInteger(draftId)) return null;
  return getOwnDraft(user.id, draftId);
}

/** Any job of this customer (a preview or file stays the customer's after the draft is ordered). */
export async function getOwnJob(userId: number, jobId: number): Promise<PrintJob | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(printJobs)
    .where(and(eq(printJobs.id, jobId), eq(printJobs.customerId, userId)))
    .limit(1);
  return row ?? null;
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
  ratePerKgCents?: number | null;
}): PriceQuote {
  return quotePrice({
    weightGrams: Math.max(0, input.weightGrams),
    colors: input.numberOfColors,
    printTimeMinutes: input.printTimeMinutes,
    ratePerKgCents: input.ratePerKgCents ?? DEFAULT_RATE_PER_KG_CENTS,
  });
}

export function draftPreviewUrl(job: Pick<PrintJob, "id" | "previewKey">): string | null {
  return job.previewKey ? `/drafts/${job.id}/preview.png` : null;
}

/** Document 001 §3 "Draft" as the API answers it (money also in cents, which is what the app stores). */
export function draftJson(job: PrintJob) {
  return {
    id: job.id,
    status: job.status,
    fileName: job.fileName,
    fileSize: job.fileSize,
    fileFormat: job.fileFormat,
    material: job.material,
    filamentColor: job.filamentColor,
    estimatedWeight: job.estimatedWeightGrams,
    numberOfColors: job.numberOfColors,
    printTimeMinutes: job.printTimeMinutes,
    totalCost: centsToDollarString(job.totalCostCents),
    totalCostCents: job.totalCostCents,
    printerProfitCents: job.printerProfitCents,
    platformFeeCents: job.platformFeeCents,
    printerId: job.printerId,
    deliveryMethod: job.deliveryMethod,
    specialInstructions: job.specialInstructions ?? "",
    printSettings: {
      quality: job.quality ?? qualityForLayerHeight(job.layerHeight),
      layerHeight: job.layerHeight,
      infill: job.infillPercent,
      supports: job.supports,
      numberOfColors: job.numberOfColors,
      printTimeMinutes: job.printTimeMinutes,
    },
    boundingBox:
      job.boundingBoxX !== null && job.boundingBoxY !== null && job.boundingBoxZ !== null
        ? { x: job.boundingBoxX, y: job.boundingBoxY, z: job.boundingBoxZ }
        : null,
    analysis: (job.analysis ?? null) as StoredAnalysis | null,
    previewUrl: draftPreviewUrl(job),
    sourceKind: job.sourceKind,
    sourceModelId: job.sourceModelId,
    createdAt: job.createdAt.toISOString(),
    updatedAt: job.updatedAt.toISOString(),
  };
}

/** The short form GET /api/users/{id}/drafts lists. */
export function draftSummaryJson(job: PrintJob) {
  return {
    id: job.id,
    fileName: job.fileName,
    material: job.material,
    estimatedWeight: job.estimatedWeightGrams,
    fileSize: job.fileSize,
    totalCost: centsToDollarString(job.totalCostCents),
    totalCostCents: job.totalCostCents,
    numberOfColors: job.numberOfColors,
    printTimeMinutes: job.printTimeMinutes,
    previewUrl: draftPreviewUrl(job),
    createdAt: job.createdAt.toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------
// Writes
// ---------------------------------------------------------------------------------------------

function analysisColumns(analysis: StoredAnalysis) {
  const box = analysis.method === "mesh" ? analysis.boundingBox : null;
  return {
    analysis,
    estimatedWeightGrams: analysis.estimatedWeight,
    printTimeMinutes: Math.max(1, Math.round(analysis.estimatedTimeMinutes)),
    boundingBoxX: box?.x ?? null,
    boundingBoxY: box?.y ?? null,
    boundingBoxZ: box?.z ?? null,
  };
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
    deliveryMethod: settings.deliveryMethod,
    specialInstructions: settings.specialInstructions ? settings.specialInstructions : null,
    printerId,
  };
}

function priceColumns(weightGrams: number, printTimeMinutes: number, numberOfColors: number, ratePerKgCents: number | null) {
  const quote = quoteDraft({ weightGrams, numberOfColors, printTimeMinutes, ratePerKgCents });
  return { totalCostCents: quote.customerPays, printerProfitCents: quote.printerProfit, platformFeeCents: quote.platformFee };
}

export interface NewDesignFile {
  bytes: Uint8Array;
  fileName: string;
}

export interface DraftSource {
  kind: "upload" | "library" | "catalogue";
  modelId: number | null;
}

/** Analyses and stores the file, then inserts the draft; files are removed again if the insert fails. */
export async function createDraft(
  userId: number,
  file: NewDesignFile,
  settings: DesignSettings,
  options: { printer?: PrinterRate | null; source?: DraftSource } = {},
): Promise<{ job: PrintJob; design: AnalysedDesign }> {
  await assertRoomForDraft(userId);
  const design = await analyseDesign(file.bytes, file.fileName, settings);
  const stored = await storeDesign(file.bytes, file.fileName, design);
  try {
    const db = await getDb();
    const columns = analysisColumns(design.analysis);
    const [job] = await db
      .insert(printJobs)
      .values({
        customerId: userId,
        status: "draft",
        fileName: cleanFileName(file.fileName),
        fileSize: file.bytes.byteLength,
        fileFormat: design.format,
        fileKey: stored.fileKey,
        previewKey: stored.previewKey,
        sourceKind: options.source?.kind ?? "upload",
        sourceModelId: options.source?.modelId ?? null,
        ...settingsColumns(settings, options.printer?.id ?? null),
        ...columns,
        ...priceColumns(
          columns.estimatedWeightGrams,
          columns.printTimeMinutes,
          settings.numberOfColors,
          options.printer?.ratePerKgCents ?? null,
        ),
      })
      .returning();
    return { job, design };
  } catch (error) {
    await removeStoredFiles(stored.fileKey, stored.previewKey);
    throw error;
  }
}

export class DraftGoneError extends Error {
  constructor(message = "This draft no longer exists or has already been submitted.") {
    super(message);
    this.name = "DraftGoneError";
  }
}

/** The draft was written by another request after this one read it (another tab, a double submit): 409. */
export class DraftChangedError extends DraftGoneError {
  constructor() {
    super("This draft changed in another tab. Reload and try again.");
    this.name = "DraftChangedError";
  }
}

/** The customer keeps the most drafts we store for one account. */
export class DraftLimitError extends Error {
  constructor() {
    super(`You have ${LIMITS.draftsPerCustomer} saved drafts. Delete some before saving more.`);
    this.name = "DraftLimitError";
  }
}

/**
 * Refuses a new draft when the customer already keeps LIMITS.draftsPerCustomer. A count, then the insert:
 * requests running at the same moment can pass it together, so it is a soft cap (each is rate limited too).
 */
export async function assertRoomForDraft(userId: number): Promise<void> {
  const db = await getDb();
  const [row] = await db
    .select({ drafts: count() })
    .from(printJobs)
    .where(and(eq(printJobs.customerId, userId), eq(printJobs.status, "draft")));
  if ((row?.drafts ?? 0) >= LIMITS.draftsPerCustomer) throw new DraftLimitError();
}

/** A version stamp that always moves forward, even for two writes in the same millisecond. */
function nextUpdatedAt(previous: Date): Date {
  return new Date(Math.max(Date.now(), previous.getTime() + 1));
}

const analysisInputsChanged = (job: PrintJob, s: DesignSettings) =>
  job.material !== s.material ||
  job.infillPercent !== s.infill ||
  job.layerHeight !== s.layerHeight ||
  job.supports !== s.supports;

/**
 * Updates settings (and the file, when a new one came); weight and time are re-measured whenever they depend on a change.
 * `existing` is the row as this request read it, before its (possibly slow) body: the write only lands if the row
 * still has that version (updated_at), so a stale request cannot store a price worked out for another file.
 */
export async function updateDraft(
  existing: PrintJob,
  settings: DesignSettings,
  options: { file?: NewDesignFile | null; printer?: PrinterRate | null },
): Promise<{ job: PrintJob; design: AnalysedDesign | null }> {
  let design: AnalysedDesign | null = null;
  let stored: { fileKey: string; previewKey: string | null } | null = null;
  if (options.file) {
    design = await analyseDesign(options.file.bytes, options.file.fileName, settings);
    stored = await storeDesign(options.file.bytes, options.file.fileName, design);
  } else if (existing.fileKey && analysisInputsChanged(existing, settings)) {
    const bytes = await readStoredFile(existing.fileKey);
    if (bytes) {
      try {
        design = await analyseDesign(bytes, existing.fileName, settings, { preview: false });
      } catch (error) {
        // the stored file was accepted once; keep the old measurements rather than lock the draft
        if (!(error instanceof DesignRejectedError)) throw error;
      }
    }
  }

  const weight = design ? design.analysis.estimatedWeight : existing.estimatedWeightGrams;
  const minutes = design ? Math.max(1, Math.round(design.analysis.estimatedTimeMinutes)) : existing.printTimeMinutes;
  const values = {
    ...settingsColumns(settings, options.printer?.id ?? null),
    ...(design ? analysisColumns(design.analysis) : {}),
    ...(stored && options.file
      ? {
          fileKey: stored.fileKey,
          previewKey: stored.previewKey,
          fileName: cleanFileName(options.file.fileName),
          fileSize: options.file.bytes.byteLength,
          fileFormat: design!.format,
          sourceKind: "upload" as const,
          sourceModelId: null,
        }
      : {}),
    ...priceColumns(weight, minutes, settings.numberOfColors, options.printer?.ratePerKgCents ?? null),
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
    throw (await getOwnDraft(existing.customerId, existing.id)) ? new DraftChangedError() : new DraftGoneError();
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

// ---------------------------------------------------------------------------------------------
// Where a finished post goes
// ---------------------------------------------------------------------------------------------

/** /printers with the design's needs: the real bounding box (rounded up to whole mm), not document 001's 50 mm. */
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

function destination(
  job: PrintJob,
  intent: DesignIntent,
  created: boolean,
  estimated: boolean,
): { redirectTo: string; toast: ToastInput } {
  const warning: ToastInput = { title: MESSAGES.analysisWarningTitle, description: MESSAGES.analysisWarning };
  if (intent === "save") {
    return {
      redirectTo: `/upload?draft=${job.id}`,
      toast: estimated
        ? warning
        : created
          ? { title: "Draft Saved", description: "Your design has been saved as a draft. You can continue working on it later." }
          : { title: "Draft Updated" },
    };
  }
  if (job.printerId) {
    return {
      redirectTo: `/submit-print?printerId=${job.printerId}&draftId=${job.id}`,
      toast: estimated ? warning : { title: "Design Uploaded Successfully" },
    };
  }
  return {
    redirectTo: printersUrlFor(job),
    toast: estimated
      ? warning
      : { title: "Design Uploaded Successfully", description: "Searching for compatible printers in your area..." },
  };
}

// ---------------------------------------------------------------------------------------------
// The one handler behind the upload page and the upload/draft API calls
// ---------------------------------------------------------------------------------------------

export type DesignPostResult =
  | { ok: true; job: PrintJob; intent: DesignIntent; created: boolean; estimated: boolean; redirectTo: string; toast: ToastInput }
  | { ok: false; status: 400 | 404 | 409 | 413 | 429 | 503; title: string; message: string; reply: SubmissionResult<string[]> };

export interface DesignPostOptions {
  user: User;
  /** the draft being edited (/upload?draft=, PUT /api/drafts/{id}) */
  draft?: PrintJob | null;
  /** an API endpoint fixes the intent; the page takes the pressed button's */
  intent?: DesignIntent;
}

function failureTitle(intent: DesignIntent, editing: boolean): string {
  if (intent === "submit") return "Upload Failed";
  return editing ? "Failed to Update Draft" : "Failed to Save Draft";
}

export async function handleDesignPost(request: Request, options: DesignPostOptions): Promise<DesignPostResult> {
  const { user, draft } = options;
  let form: DesignForm;
  let formError: DesignFormError | null = null;
  try {
    form = await readDesignForm(request);
  } catch (error) {
    if (!(error instanceof DesignFormError)) throw error;
    formError = error;
    form = { fields: error.fields, file: null };
  }
  const fields = flattenPrintSettings(form.fields);
  const submission = parseWithZod(fields, { schema: DesignSettingsSchema });
  const postedIntent = fields.get("intent") === "submit" ? "submit" : "save";
  const intent: DesignIntent = options.intent ?? (submission.status === "success" ? submission.value.intent : postedIntent);
  const title = failureTitle(intent, Boolean(draft));
  /** A file error sits under the file input and says what happens to the file; anything else is a form error. */
  const fail = (status: 400 | 404 | 409 | 413 | 429 | 503, message: string, onFile = true): DesignPostResult => {
    const hint = draft?.fileKey ? " The draft keeps its current file." : ` ${MESSAGES.chooseAgain}`;
    const reply = onFile
      ? submission.reply({ fieldErrors: { [FILE_FIELD]: [`${message}${hint}`] } })
      : submission.reply({ formErrors: [message] });
    return { ok: false, status, title, message, reply };
  };

  if (formError) return fail(formError.status, formError.message);
  if (submission.status !== "success") {
    const first = Object.values(submission.error ?? {}).flat()[0] ?? "Please check the print settings.";
    return { ok: false, status: 400, title, message: first, reply: submission.reply() };
  }
  const settings = submission.value;

  if (!form.file && !draft) {
    const message = intent === "save" ? MESSAGES.fileRequiredDraft : MESSAGES.fileRequiredUpload;
    return {
      ok: false,
      status: 400,
      title: MESSAGES.fileRequiredTitle,
      message,
      reply: submission.reply({ fieldErrors: { [FILE_FIELD]: [message] } }),
    };
  }

  let printer: PrinterRate | null = null;
  if (settings.printerId) {
    printer = await getPrinterRate(settings.printerId);
    if (!printer) return fail(400, "That printer no longer exists. Please choose another one.", false);
  } else if (draft?.printerId) {
    // an edit that does not name a printer keeps the draft's
    printer = await getPrinterRate(draft.printerId);
  }

  let file: NewDesignFile | null = null;
  if (form.file) {
    const limit = await hitRateLimit(`design-upload:${user.id}`, LIMITS.designUploadsPerHour, ONE_HOUR_MS);
    if (!limit.allowed) return fail(429, "You have uploaded many designs in the last hour. Please try again later.");
    file = { bytes: new Uint8Array(await form.file.arrayBuffer()), fileName: form.file.name };
  }

  try {
    if (draft) {
      const { job, design } = await updateDraft(draft, settings, { file, printer });
      const estimated = design ? design.analysis.method === "file-size" : false;
      return { ok: true, job, intent, created: false, estimated, ...destination(job, intent, false, estimated) };
    }
    const { job, design } = await createDraft(user.id, file!, settings, { printer, source: { kind: "upload", modelId: null } });
    const estimated = design.analysis.method === "file-size";
    return { ok: true, job, intent, created: true, estimated, ...destination(job, intent, true, estimated) };
  } catch (error) {
    if (error instanceof DesignRejectedError) return fail(error.status, error.message);
    if (error instanceof DraftGoneError) return fail(409, error.message, false);
    if (error instanceof DraftLimitError) return fail(409, error.message, false);
    if (error instanceof AnalysisBusyError) return fail(503, error.message, false);
    throw error;
  }
}

/** Settings of a stored draft in the form's terms (the page's default values). */
export function draftSettings(job: PrintJob) {
  return {
    material: job.material,
    filamentColor: job.filamentColor,
    layerHeight: String(job.layerHeight),
    infill: String(job.infillPercent),
    supports: job.supports,
    numberOfColors: String(job.numberOfColors),
    deliveryMethod: job.deliveryMethod,
    specialInstructions: job.specialInstructions ?? "",
  };
}

export const NEW_DESIGN_SETTINGS = {
  material: DESIGN_DEFAULTS.material,
  filamentColor: DESIGN_DEFAULTS.filamentColor,
  layerHeight: String(DESIGN_DEFAULTS.layerHeight),
  infill: String(DESIGN_DEFAULTS.infill),
  supports: DESIGN_DEFAULTS.supports,
  numberOfColors: String(DESIGN_DEFAULTS.numberOfColors),
  deliveryMethod: DESIGN_DEFAULTS.deliveryMethod,
  specialInstructions: "",
};

/** The JSON answer of the upload and draft API calls; a success also flashes the page's toast for the next page a browser shows. */
export async function designApiResponse(result: DesignPostResult): Promise<Response> {
  if (!result.ok) {
    const fieldErrors = Object.fromEntries(
      Object.entries(result.reply.error ?? {}).filter(
        (entry): entry is [string, string[]] => Array.isArray(entry[1]) && entry[0] !== "",
      ),
    );
    return Response.json({ title: result.title, message: result.message, fieldErrors }, { status: result.status });
  }
  return Response.json(
    {
      jobId: result.job.id,
      draftId: result.job.id,
      status: result.job.status,
      totalCost: centsToDollarString(result.job.totalCostCents),
      totalCostCents: result.job.totalCostCents,
      estimatedWeight: result.job.estimatedWeightGrams,
      printTimeMinutes: result.job.printTimeMinutes,
      analysisMethod: (result.job.analysis as StoredAnalysis | null)?.method ?? null,
      redirectTo: result.redirectTo,
      toast: result.toast,
    },
    { status: result.created ? 201 : 200, headers: { "set-cookie": await createToastHeader(result.toast) } },
  );
}

export function methodNotAllowed(allow: string): Response {
  return Response.json({ message: "Method not allowed" }, { status: 405, headers: { allow } });
}

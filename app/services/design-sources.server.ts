// Drafts made from models: a library model's stored file, or a catalogue model's printable file
// fetched from the model-sharing site under the same size cap and checks as an upload.
import { and, desc, eq, gt } from "drizzle-orm";
import { printJobs, type PrintJob } from "../../db/schema";
import { DESIGN_DEFAULTS, DesignSettingsSchema, MESSAGES } from "~/domain/design-settings";
import { CatalogueUnavailableError, getCatalogueSource, type CatalogueFile } from "~/services/catalogue/index.server";
import { getOrderableModel, type ModelSource, type OrderableModel } from "~/services/models.server";
import { isAppError } from "~/domain/app-error";
import { httpStatusOf } from "~/utils/app-error.server";
import { getDb } from "~/utils/db.server";
import { readStoredFile } from "./design-analysis.server";
import { hitModelDraftLimit, modelDraftLimitMessage } from "./design-quotas.server";
import { assertRoomForDraft, createDraft } from "./draft-writes.server";
import { MAX_DESIGN_BYTES } from "./storage.server";

/** Hosts a catalogue file may be fetched from, redirects included: Thingiverse's API, site, CDN and its older S3 asset host. */
export const CATALOGUE_DOWNLOAD_HOSTS: readonly string[] = [
  "api.thingiverse.com",
  "www.thingiverse.com",
  "thingiverse.com",
  "cdn.thingiverse.com",
  "thingiverse-production-new.s3.amazonaws.com",
];
/** Only the API host gets the bearer token; CDNs never see it. */
const TOKEN_HOSTS: readonly string[] = ["api.thingiverse.com"];
const MAX_REDIRECTS = 5;
const DOWNLOAD_TIMEOUT_MS = 60_000;
/** Ordering the same model twice within this window reuses the draft (a refresh or prefetch must not pile up drafts). */
const REUSE_WINDOW_MS = 10 * 60 * 1000;

/** A failure the customer can read; the order-model page shows it in the 'Error' toast. */
export class ModelOrderError extends Error {
  readonly status: 400 | 403 | 404 | 409 | 413 | 429 | 503;
  constructor(message: string, status: 400 | 403 | 404 | 409 | 413 | 429 | 503 = 400) {
    super(message);
    this.name = "ModelOrderError";
    this.status = status;
  }
}

const PRINTABLE = ["stl", "3mf", "obj"] as const;

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

async function draftFromBytes(
  userId: number,
  bytes: Uint8Array,
  fileName: string,
  kind: "library" | "catalogue",
  modelId: number,
) {
  try {
    const { job } = await createDraft(userId, { bytes, fileName }, defaultSettings(), { source: { kind, modelId } });
    return job;
  } catch (error) {
    if (isAppError(error)) throw new ModelOrderError(error.message, httpStatusOf(error) as ModelOrderError["status"]);
    throw error;
  }
}

/**
 * Before a new draft is made from a model (a file copied or downloaded, then analysed): the customer's hourly
 * quota of model drafts, and room among their saved drafts. A reused recent draft costs neither.
 */
async function allowNewModelDraft(userId: number): Promise<void> {
  try {
    await assertRoomForDraft(userId);
  } catch (error) {
    if (isAppError(error)) throw new ModelOrderError(error.message, httpStatusOf(error) as ModelOrderError["status"]);
    throw error;
  }
  const limit = await hitModelDraftLimit(userId);
  if (!limit.allowed) throw new ModelOrderError(modelDraftLimitMessage(limit.retryAfterSeconds), 429);
}

/** The models service decides whether a model may be printed for money (licence, existence). */
async function orderable(source: ModelSource, id: number): Promise<OrderableModel> {
  const check = await getOrderableModel(source, id);
  if (!check.ok) throw new ModelOrderError(check.message, check.status);
  return check.model;
}

// ---------------------------------------------------------------------------------------------
// Library models
// ---------------------------------------------------------------------------------------------

export async function draftFromLibraryModel(userId: number, modelId: number): Promise<PrintJob> {
  const model = await orderable("library", modelId);
  const reused = await recentDraftFor(userId, "library", model.id);
  if (reused) return reused;
  if (!model.file) throw new ModelOrderError("This model has no printable file yet.", 404);
  await allowNewModelDraft(userId);
  const bytes = await readStoredFile(model.file.storageKey);
  if (!bytes) throw new ModelOrderError("This model's file is missing from storage.", 404);
  return draftFromBytes(userId, bytes, model.file.name, "library", model.id);
}

// ---------------------------------------------------------------------------------------------
// Catalogue models
// ---------------------------------------------------------------------------------------------

export function allowedDownloadUrl(raw: string): URL | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" || url.username || url.password || (url.port && url.port !== "443")) return null;
  return CATALOGUE_DOWNLOAD_HOSTS.includes(url.hostname.toLowerCase()) ? url : null;
}

/**
 * Fetches a file from an allowed https host, following redirects by hand so every hop is checked,
 * and counting bytes as they stream so a body past 50 MB is aborted, whatever Content-Length said.
 */
export async function downloadCatalogueFile(
  rawUrl: string,
  options: { token?: string; fetch?: typeof fetch; maxBytes?: number; timeoutMs?: number } = {},
): Promise<Uint8Array> {
  const maxBytes = options.maxBytes ?? MAX_DESIGN_BYTES;
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? DOWNLOAD_TIMEOUT_MS);
  try {
    let url = allowedDownloadUrl(rawUrl);
    for (let hop = 0; ; hop++) {
      if (!url) throw new ModelOrderError("The model's file is hosted somewhere we do not download from.", 400);
      const headers: Record<string, string> = { accept: "application/octet-stream, */*" };
      if (options.token && TOKEN_HOSTS.includes(url.hostname)) headers.authorization = `Bearer ${options.token}`;
      let response: Response;
      try {
        response = await doFetch(url.href, { headers, redirect: "manual", signal: controller.signal });
      } catch {
        throw new ModelOrderError("The model's file could not be downloaded. Please try again later.", 503);
      }
      if (response.status >= 300 && response.status < 400) {
        const location = response.headers.get("location");
        void response.body?.cancel().catch(() => {});
        if (!location || hop >= MAX_REDIRECTS) throw new ModelOrderError("The model's file could not be downloaded.", 503);
        url = allowedDownloadUrl(new URL(location, url).href);
        continue;
      }
      if (!response.ok || !response.body) {
        void response.body?.cancel().catch(() => {});
        throw new ModelOrderError("The model's file could not be downloaded. Please try again later.", 503);
      }
      const declared = Number(response.headers.get("content-length"));
      if (Number.isFinite(declared) && declared > maxBytes) {
        void response.body.cancel().catch(() => {});
        throw new ModelOrderError(MESSAGES.tooLarge, 413);
      }
      const chunks: Uint8Array[] = [];
      let received = 0;
      const reader = response.body.getReader();
      for (;;) {
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await reader.read();
        } catch {
          throw new ModelOrderError("The model's file could not be downloaded. Please try again later.", 503);
        }
        if (next.done) break;
        received += next.value.byteLength;
        if (received > maxBytes) {
          controller.abort();
          // not awaited: a teed body (msw, proxies) settles its cancel only when every branch is cancelled
          void reader.cancel().catch(() => {});
          throw new ModelOrderError(MESSAGES.tooLarge, 413);
        }
        chunks.push(next.value);
      }
      const out = new Uint8Array(received);
      let at = 0;
      for (const chunk of chunks) {
        out.set(chunk, at);
        at += chunk.byteLength;
      }
      return out;
    }
  } finally {
    clearTimeout(timer);
  }
}

/** The first printable file in the order the site lists them (its main file comes first). */
export function pickPrintableFile(files: CatalogueFile[]): CatalogueFile | null {
  return files.find((f) => (PRINTABLE as readonly string[]).includes(f.format)) ?? null;
}

/** Catalogue drafts record the model's id on the source site, the id its page (/models/thingiverse/{id}) uses. */
export async function draftFromCatalogueModel(userId: number, thingId: number): Promise<PrintJob> {
  // refreshes the licence from the site before deciding (ADR 004)
  const model = await orderable("thingiverse", thingId);
  const reused = await recentDraftFor(userId, "catalogue", model.id);
  if (reused) return reused;
  await allowNewModelDraft(userId);
  const source = getCatalogueSource();
  if (!source) throw new ModelOrderError("The model catalogue is not available right now, so this model cannot be ordered.", 503);
  try {
    const file = pickPrintableFile(await source.getFiles(model.id));
    if (!file) throw new ModelOrderError("This model has no STL, OBJ or 3MF file to print.", 404);
    if (file.size > MAX_DESIGN_BYTES) throw new ModelOrderError(MESSAGES.tooLarge, 413);
    const direct = file.directUrl ? allowedDownloadUrl(file.directUrl) : null;
    const bytes = await downloadCatalogueFile(direct ? direct.href : file.downloadUrl, {
      token: process.env.THINGIVERSE_TOKEN?.trim() || undefined,
    });
    return await draftFromBytes(userId, bytes, file.name, "catalogue", model.id);
  } catch (error) {
    if (error instanceof CatalogueUnavailableError) {
      throw new ModelOrderError("The model catalogue is not answering right now. Please try again later.", 503);
    }
    throw error;
  }
}

export function isModelSource(value: string | undefined): value is ModelSource {
  return value === "library" || value === "thingiverse";
}

/** One entry for the order-model page and both API calls. */
export async function draftFromModel(userId: number, source: ModelSource, modelId: number): Promise<PrintJob> {
  return source === "library" ? draftFromLibraryModel(userId, modelId) : draftFromCatalogueModel(userId, modelId);
}

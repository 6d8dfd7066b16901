// The server's own reading of a design file (authoritative), with the size-based fallback,
// and keeping the file and its preview image in storage under our own keys. The engine runs in the
// analysis pool's worker threads, not on the request thread.
import { AppError, isAppError } from "~/domain/app-error";
import { extensionAllowed, MESSAGES, REFUSED_MESH_ERRORS, type DesignAnalysis } from "~/domain/design-settings";
import { cleanFileName } from "~/domain/file-name";
import { DEFAULT_DESIGN_SCALE, scaleFactor, type DesignScale } from "~/domain/design-scale";
import { detectFormat, estimateFromFileSize, MeshError, roundGrams, type MeshFormat, type SupportsMode } from "~/domain/mesh";
import { openAsBlob } from "node:fs";
import { open } from "node:fs/promises";
import { analyzeOffThread } from "./analysis-pool.server";
import { getStorage, MAX_DESIGN_BYTES, newStorageKey } from "~/services/storage.server";

/** The server-rendered preview of a draft (pages without JavaScript show it). */
export const PREVIEW_SIZE = { width: 480, height: 360 };

export interface AnalysisSettings {
  material: string;
  infill: number;
  layerHeight: number;
  supports: SupportsMode;
  /** the file's units and the customer's scale; millimetres at 100% when absent */
  units?: DesignScale["units"];
  scalePercent?: number;
}

export type StoredAnalysis = DesignAnalysis;

const definedScale = (settings: AnalysisSettings): Partial<DesignScale> => ({
  ...(settings.units ? { units: settings.units } : {}),
  ...(settings.scalePercent ? { scalePercent: settings.scalePercent } : {}),
});

/** A file the platform will not take: the message is for the customer, and it is about the file field. */
export function designRejected(message: string, code: "invalid" | "too_large" = "invalid"): AppError {
  return new AppError(code, message, { field: "file" });
}

/** Whether an error is a refusal of the file itself (not a busy machine or a lost race). */
export function isDesignRejection(error: unknown): error is AppError {
  return isAppError(error) && error.field === "file" && (error.code === "invalid" || error.code === "too_large");
}

/** A design's bytes (a model's stored file, a download), or an upload that is on disk while it waits. */
export type DesignSource = Uint8Array | { path: string; size: number };

const sizeOf = (source: DesignSource) => (source instanceof Uint8Array ? source.byteLength : source.size);

/** The first bytes of a design or other upload: enough for a format check, without reading a 50 MB file into memory. */
export async function headOf(source: DesignSource, length = 4096): Promise<Uint8Array> {
  if (source instanceof Uint8Array) return source.subarray(0, length);
  const handle = await open(source.path, "r");
  try {
    const head = new Uint8Array(Math.min(length, source.size));
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export interface AnalyzedDesign {
  format: MeshFormat;
  analysis: StoredAnalysis;
  /** the PNG preview; null when the fallback estimate was used, none was asked for, or rendering failed */
  preview: Uint8Array | null;
}

/**
 * Type by extension, then by content, then the measurements; refused files (and ones that take longer than
 * the pool's time limit) throw designRejected's AppError; a full pool throws AppError "busy".
 * `preview: false` skips the thumbnail when only the numbers are wanted (re-measuring a stored file).
 */
export async function analyzeDesign(
  source: DesignSource,
  fileName: string,
  settings: AnalysisSettings,
  { preview = true, owner }: { preview?: boolean; owner?: number } = {},
): Promise<AnalyzedDesign> {
  if (!extensionAllowed(fileName)) throw designRejected(MESSAGES.invalidType);
  const size = sizeOf(source);
  if (size > MAX_DESIGN_BYTES) throw designRejected(MESSAGES.tooLarge, "too_large");
  let format: MeshFormat;
  try {
    format = detectFormat(await headOf(source), fileName);
  } catch (error) {
    if (error instanceof MeshError) throw designRejected(error.message);
    throw error;
  }
  const scale = scaleFactor(format, { ...DEFAULT_DESIGN_SCALE, ...definedScale(settings) });
  const options = {
    material: settings.material,
    infill: settings.infill,
    layerHeight: settings.layerHeight,
    supports: settings.supports,
    scale,
  };
  try {
    const result = await analyzeOffThread(source, fileName, options, {
      preview: preview ? PREVIEW_SIZE : null,
      owner: owner === undefined ? undefined : String(owner),
    });
    return { format, preview: result.preview, analysis: { method: "mesh", ...result.analysis } };
  } catch (error) {
    // a busy pool goes on up; a timeout is a refusal of the file
    if (isAppError(error)) throw error.code === "busy" ? error : designRejected(error.message);
    if (error instanceof MeshError && REFUSED_MESH_ERRORS.has(error.code)) throw designRejected(error.message);
    // When analysis fails the size-based estimate is used and the upload still works.
    const reason = error instanceof MeshError ? error.message : "The analysis engine could not read this file.";
    if (!(error instanceof MeshError)) console.error("design analysis failed unexpectedly", error);
    const estimate = estimateFromFileSize(size, format, settings.material);
    const cube = scale * scale * scale;
    return {
      format,
      preview: null,
      analysis: {
        method: "file-size",
        estimatedWeight: roundGrams(estimate.estimatedWeight * cube),
        estimatedTimeMinutes: Math.max(1, Math.round(estimate.estimatedTimeMinutes * cube)),
        numberOfColors: 1,
        fileFormat: format,
        material: settings.material,
        infillDensity: settings.infill,
        layerHeight: settings.layerHeight,
        supports: settings.supports,
        reason,
      },
    };
  }
}

export interface StoredDesign {
  fileKey: string;
  previewKey: string | null;
}

/** Writes the design and, when the mesh was read, its server-rendered preview PNG (rendered by the analysis). */
export async function storeDesign(source: DesignSource, fileName: string, design: AnalyzedDesign): Promise<StoredDesign> {
  const storage = getStorage();
  const fileKey = newStorageKey("designs", design.format);
  // an upload on disk stays a disk-backed blob: it is streamed into storage, not read into memory
  const content = source instanceof Uint8Array ? (source as Uint8Array<ArrayBuffer>) : await openAsBlob(source.path);
  await storage.set(fileKey, new File([content], cleanFileName(fileName), { type: "application/octet-stream" }));
  let previewKey: string | null = null;
  if (design.preview) {
    try {
      previewKey = newStorageKey("previews", "png");
      await storage.set(previewKey, new File([design.preview as Uint8Array<ArrayBuffer>], "preview.png", { type: "image/png" }));
    } catch (error) {
      // a missing thumbnail must not cost the customer the upload
      console.error("preview could not be stored", error);
      previewKey = null;
    }
  }
  return { fileKey, previewKey };
}

export async function readStoredFile(key: string): Promise<Uint8Array | null> {
  const file = await getStorage().get(key);
  if (!file) return null;
  return new Uint8Array(await file.arrayBuffer());
}

/** Best effort: a file left behind costs disk space, not correctness. */
export async function removeStoredFiles(...keys: Array<string | null | undefined>): Promise<void> {
  const storage = getStorage();
  for (const key of keys) {
    if (!key) continue;
    try {
      await storage.remove(key);
    } catch (error) {
      console.error(`could not remove stored file ${key}`, error);
    }
  }
}

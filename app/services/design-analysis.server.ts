// The server's own reading of a design file (authoritative), with document 001's size-based fallback,
// and keeping the file and its preview image in storage under our own keys. The engine runs in the
// analysis pool's worker threads, not on the request thread.
import { AppError, isAppError } from "~/domain/app-error";
import { extensionAllowed, MESSAGES, REFUSED_MESH_ERRORS, type DesignAnalysis } from "~/domain/design-settings";
import { cleanFileName } from "~/domain/file-name";
import { detectFormat, estimateFromFileSize, MeshError, type MeshFormat, type SupportsMode } from "~/domain/mesh";
import { analyzeOffThread } from "./analysis-pool.server";
import { getStorage, MAX_DESIGN_BYTES, newStorageKey } from "./storage.server";

/** The server-rendered preview of a draft (pages without JavaScript show it). */
export const PREVIEW_SIZE = { width: 480, height: 360 };

export interface AnalysisSettings {
  material: string;
  infill: number;
  layerHeight: number;
  supports: SupportsMode;
}

export type StoredAnalysis = DesignAnalysis;

/** A file the platform will not take: the message is for the customer, and it is about the file field. */
export function designRejected(message: string, code: "invalid" | "too_large" = "invalid"): AppError {
  return new AppError(code, message, { field: "file" });
}

/** Whether an error is a refusal of the file itself (not a busy machine or a lost race). */
export function isDesignRejection(error: unknown): error is AppError {
  return isAppError(error) && error.field === "file" && (error.code === "invalid" || error.code === "too_large");
}

export interface AnalysedDesign {
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
export async function analyseDesign(
  bytes: Uint8Array,
  fileName: string,
  settings: AnalysisSettings,
  { preview = true }: { preview?: boolean } = {},
): Promise<AnalysedDesign> {
  if (!extensionAllowed(fileName)) throw designRejected(MESSAGES.invalidType);
  if (bytes.byteLength > MAX_DESIGN_BYTES) throw designRejected(MESSAGES.tooLarge, "too_large");
  let format: MeshFormat;
  try {
    format = detectFormat(bytes, fileName);
  } catch (error) {
    if (error instanceof MeshError) throw designRejected(error.message);
    throw error;
  }
  const options = {
    material: settings.material,
    infill: settings.infill,
    layerHeight: settings.layerHeight,
    supports: settings.supports,
  };
  try {
    const result = await analyzeOffThread(bytes, fileName, options, { preview: preview ? PREVIEW_SIZE : null });
    return { format, preview: result.preview, analysis: { method: "mesh", ...result.analysis } };
  } catch (error) {
    // a busy pool goes on up; a timeout is a refusal of the file
    if (isAppError(error)) throw error.code === "busy" ? error : designRejected(error.message);
    if (error instanceof MeshError && REFUSED_MESH_ERRORS.has(error.code)) throw designRejected(error.message);
    // Document 001: when analysis fails the size-based estimate is used and the upload still works.
    const reason = error instanceof MeshError ? error.message : "The analysis engine could not read this file.";
    if (!(error instanceof MeshError)) console.error("design analysis failed unexpectedly", error);
    const estimate = estimateFromFileSize(bytes.byteLength, format, settings.material);
    return {
      format,
      preview: null,
      analysis: {
        method: "file-size",
        estimatedWeight: estimate.estimatedWeight,
        estimatedTimeMinutes: estimate.estimatedTimeMinutes,
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
export async function storeDesign(bytes: Uint8Array, fileName: string, design: AnalysedDesign): Promise<StoredDesign> {
  const storage = getStorage();
  const fileKey = newStorageKey("designs", design.format);
  await storage.set(
    fileKey,
    new File([bytes as Uint8Array<ArrayBuffer>], cleanFileName(fileName), { type: "application/octet-stream" }),
  );
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

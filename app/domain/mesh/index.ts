// Entry of the 3D-file analysis engine; pure TypeScript so it runs on the server and in a browser worker.

import { findMaterial } from "../materials";
import { PRINT_DEFAULTS } from "../print-defaults";
import { INVALID_FILE_TYPE_MESSAGE, MeshError } from "./errors";
import { computeBasicMetrics } from "./metrics";
import { computeTopology } from "./topology";
import { DEFAULT_CALIBRATION, type Calibration } from "./calibration";
import { estimatePrint } from "./estimate";
import { parseStl } from "./stl";
import { parseObj } from "./obj";
import { parse3mf } from "./threemf";
import { roundGrams } from "./fallback";
import type { AnalysisOptions, AnalysisResult, Mesh, MeshFormat, SupportsMode } from "./types";
import { isMeshFormat, isSupportsMode } from "./types";

export { MeshError, INVALID_FILE_TYPE_MESSAGE, MAX_TRIANGLES } from "./errors";
export type { MeshErrorCode } from "./errors";
export type { AnalysisOptions, AnalysisResult, Mesh, MeshFormat, SupportsMode, Vec3Box } from "./types";
export { isSupportsMode, SUPPORT_MODES } from "./types";
export { parseStl, parseBinaryStl, parseAsciiStl, isBinaryStl } from "./stl";
export { parseObj } from "./obj";
export { parse3mf } from "./threemf";
export { computeBasicMetrics } from "./metrics";
export type { BasicMetrics } from "./metrics";
export { computeTopology } from "./topology";
export type { Topology } from "./topology";
export { weldVertices } from "./weld";
export { DEFAULT_CALIBRATION } from "./calibration";
export type { Calibration } from "./calibration";
export { estimatePrint } from "./estimate";
export type { PrintEstimate, PrintSettings } from "./estimate";
export {
  estimateFromFileSize,
  roundGrams,
  layerHeightBucket,
  layerHeightForQuality,
  QUALITY_PRESETS,
  FALLBACK_MM3_PER_MB,
} from "./fallback";
export { renderPreviewPng } from "./preview";

/** The analysis options a caller leaves out: the platform's one set of default print settings. */
export const DEFAULT_OPTIONS = PRINT_DEFAULTS;
/** Nominal speed shown to customers; the time estimate uses the profile's per-feature speeds. */
export const DEFAULT_PRINT_SPEED = 50;

function startsWith(b: Uint8Array, sig: number[]): boolean {
  if (b.length < sig.length) return false;
  for (let k = 0; k < sig.length; k++) if (b[k] !== sig[k]) return false;
  return true;
}

const ascii = (s: string): number[] => Array.from(s, (c) => c.charCodeAt(0));

/** Signatures of common files that get renamed to a model extension by mistake. */
const FOREIGN_SIGNATURES: number[][] = [
  [0x89, 0x50, 0x4e, 0x47], // PNG
  [0xff, 0xd8, 0xff], // JPEG
  ascii("GIF8"),
  ascii("%PDF"),
  [0x1f, 0x8b], // gzip
  [0x7f, 0x45, 0x4c, 0x46], // ELF
  ascii("Rar!"),
  [0x37, 0x7a, 0xbc, 0xaf], // 7z
  ascii("RIFF"),
  ascii("<!DOCTYPE"),
  ascii("<!doctype"),
  ascii("<html"),
  ascii("<?xml"),
];
const ZIP = [0x50, 0x4b, 0x03, 0x04];

/** Format from the extension, confirmed by the content; anything else is refused. */
export function detectFormat(bytes: Uint8Array, fileName: string): MeshFormat {
  const ext = /\.([^./\\]+)$/.exec(fileName.trim())?.[1]?.toLowerCase();
  const format: MeshFormat | null = isMeshFormat(ext) ? ext : null;
  if (!format) throw new MeshError(INVALID_FILE_TYPE_MESSAGE, "invalid-type");
  if (bytes.length === 0) throw new MeshError(`This ${format.toUpperCase()} file is empty.`, "empty");
  if (FOREIGN_SIGNATURES.some((sig) => startsWith(bytes, sig))) throw new MeshError(INVALID_FILE_TYPE_MESSAGE, "invalid-type");
  if (format === "3mf") return format;
  if (startsWith(bytes, ZIP)) throw new MeshError(INVALID_FILE_TYPE_MESSAGE, "invalid-type");
  if (format === "obj") {
    const head = Math.min(bytes.length, 4096);
    for (let i = 0; i < head; i++) if (bytes[i] === 0) throw new MeshError(INVALID_FILE_TYPE_MESSAGE, "invalid-type");
  }
  return format;
}

export async function parseModel(bytes: Uint8Array, fileName: string): Promise<Mesh> {
  const format = detectFormat(bytes, fileName);
  if (format === "stl") return parseStl(bytes);
  if (format === "obj") return parseObj(bytes);
  return parse3mf(bytes);
}

interface ResolvedOptions {
  material: string;
  density: number;
  infill: number;
  layerHeight: number;
  supports: SupportsMode;
  scale: number;
}

export function resolveOptions(options: AnalysisOptions = {}): ResolvedOptions {
  const materialName = options.material ?? DEFAULT_OPTIONS.material;
  const material = findMaterial(materialName);
  if (!material) throw new MeshError(`Unknown material "${materialName}".`, "bad-option");
  const infill = options.infill ?? DEFAULT_OPTIONS.infill;
  if (!Number.isFinite(infill) || infill < 0 || infill > 100) {
    throw new MeshError("Infill must be a percentage between 0 and 100.", "bad-option");
  }
  const layerHeight = options.layerHeight ?? DEFAULT_OPTIONS.layerHeight;
  if (!Number.isFinite(layerHeight) || layerHeight < 0.04 || layerHeight > 1) {
    throw new MeshError("Layer height must be between 0.04 and 1 mm.", "bad-option");
  }
  const supports = options.supports ?? DEFAULT_OPTIONS.supports;
  if (!isSupportsMode(supports)) {
    throw new MeshError('Supports must be "no", "auto" or "yes".', "bad-option");
  }
  const scale = options.scale ?? 1;
  if (!Number.isFinite(scale) || scale <= 0 || scale > 1000) {
    throw new MeshError("Scale must be a positive factor.", "bad-option");
  }
  return { material: material.name, density: material.density, infill, layerHeight, supports, scale };
}

/** The mesh with every position multiplied by `scale`: units and scale are applied before measuring, the engine is unchanged. */
function scaledMesh(mesh: Mesh, scale: number): Mesh {
  if (scale === 1) return mesh;
  const positions = new Float32Array(mesh.positions.length);
  for (let k = 0; k < positions.length; k++) positions[k] = mesh.positions[k]! * scale;
  return { ...mesh, positions };
}

/** Metrics and estimates of an already parsed mesh (reusable by callers that parse once). */
export function analyzeMesh(
  mesh: Mesh,
  options: AnalysisOptions = {},
  calibration: Calibration = DEFAULT_CALIBRATION,
): AnalysisResult {
  const opts = resolveOptions(options);
  const measured = scaledMesh(mesh, opts.scale);
  const basic = computeBasicMetrics(measured);
  const topo = computeTopology(measured);
  const est = estimatePrint(
    topo,
    basic,
    { layerHeight: opts.layerHeight, infill: opts.infill, density: opts.density, supports: opts.supports },
    calibration,
  );
  const r2 = (v: number): number => Math.round(v * 100) / 100;
  return {
    estimatedWeight: roundGrams(est.grams),
    estimatedTimeMinutes: Math.max(1, Math.round(est.minutes)),
    numberOfColors: mesh.numberOfColors,
    boundingBox: { x: r2(basic.boundingBox.x), y: r2(basic.boundingBox.y), z: r2(basic.boundingBox.z) },
    volume: r2(basic.volume),
    surfaceArea: r2(basic.surfaceArea),
    infillDensity: opts.infill,
    layerHeight: opts.layerHeight,
    printSpeed: DEFAULT_PRINT_SPEED,
    supportMaterial: est.supportVolume > 0,
    supports: opts.supports,
    material: opts.material,
    fileFormat: mesh.format,
    triangles: mesh.triangleCount,
    bodies: topo.bodies,
    closed: topo.closed,
    openEdges: topo.openEdges,
  };
}

/** Reads a model file (STL, OBJ or 3MF) and returns its measurements and print estimate; throws MeshError on bad files. */
export async function analyzeModel(bytes: Uint8Array, fileName: string, options: AnalysisOptions = {}): Promise<AnalysisResult> {
  resolveOptions(options);
  const mesh = await parseModel(bytes, fileName);
  return analyzeMesh(mesh, options);
}

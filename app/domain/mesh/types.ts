// Shapes shared by the parsers, the metrics, the estimator and the preview.

/** The printable formats the platform takes, by file extension (also the 3D file's format). */
export const MESH_FORMATS = ["stl", "obj", "3mf"] as const;
export type MeshFormat = (typeof MESH_FORMATS)[number];
/** Whether a (lower-case) extension or format name is one of MESH_FORMATS. */
export function isMeshFormat(value: string | null | undefined): value is MeshFormat {
  return (MESH_FORMATS as readonly (string | null | undefined)[]).includes(value);
}
/** Where supports are printed: none, only where needed, everywhere. */
export const SUPPORT_MODES = ["no", "auto", "yes"] as const;
export type SupportsMode = (typeof SUPPORT_MODES)[number];
export function isSupportsMode(value: unknown): value is SupportsMode {
  return (SUPPORT_MODES as readonly unknown[]).includes(value);
}

/** A triangle mesh in millimetres, stored in flat typed arrays only. */
export interface Mesh {
  /** x, y, z per vertex */
  positions: Float32Array;
  /** three vertex indices per triangle, or null when positions is a triangle soup (nine floats per triangle) */
  indices: Uint32Array | null;
  triangleCount: number;
  format: MeshFormat;
  /** distinct colours the file assigns to printed objects (3MF only); 1 otherwise */
  numberOfColors: number;
}

export interface Vec3Box {
  x: number;
  y: number;
  z: number;
}

export interface AnalysisOptions {
  material?: string;
  /** percent, 0-100 */
  infill?: number;
  /** millimetres */
  layerHeight?: number;
  supports?: SupportsMode;
  /** lengths multiplied by this before measuring: the file's unit in mm times the customer's scale; 1 when absent */
  scale?: number;
}

export interface AnalysisResult {
  /** grams, rounded to 0.1 */
  estimatedWeight: number;
  /** whole minutes */
  estimatedTimeMinutes: number;
  numberOfColors: number;
  /** millimetres */
  boundingBox: Vec3Box;
  /** mm3 */
  volume: number;
  /** mm2 */
  surfaceArea: number;
  /** percent */
  infillDensity: number;
  /** millimetres */
  layerHeight: number;
  /** mm/s, the nominal speed quoted to customers */
  printSpeed: number;
  /** true when the estimate includes support material */
  supportMaterial: boolean;
  supports: SupportsMode;
  material: string;
  fileFormat: MeshFormat;
  triangles: number;
  bodies: number;
  closed: boolean;
  openEdges: number;
}

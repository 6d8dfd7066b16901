// User-facing failures of the analysis engine: every bad file ends here, never in a crash.

export type MeshErrorCode =
  | "invalid-type"
  | "truncated"
  | "bad-number"
  | "too-many-triangles"
  | "missing-vertex"
  | "bad-package"
  | "dtd"
  | "too-many-entries"
  | "zip-bomb"
  | "empty"
  | "malformed"
  | "bad-option";

// A brand shared by every copy of this module in one process (the built app and the job runner
// loaded from source share one analysis pool), so `instanceof MeshError` holds across copies.
const MESH_ERROR_BRAND = Symbol.for("printnear.MeshError");

export class MeshError extends Error {
  readonly code: MeshErrorCode;
  readonly [MESH_ERROR_BRAND] = true;
  constructor(message: string, code: MeshErrorCode) {
    super(message);
    this.name = "MeshError";
    this.code = code;
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[MESH_ERROR_BRAND] === true;
  }
}

export const INVALID_FILE_TYPE_MESSAGE = "Invalid file type. Only STL, OBJ, and 3MF files are allowed.";

/** Larger meshes are refused so one upload cannot pin a server core or a browser tab. */
export const MAX_TRIANGLES = 5_000_000;

export function tooManyTriangles(): MeshError {
  return new MeshError(
    `This model has more than ${MAX_TRIANGLES.toLocaleString("en-US")} triangles; please simplify it before uploading.`,
    "too-many-triangles",
  );
}

/** Bytes named .stl that are neither text STL nor a binary STL whose header fits the file: refused as the wrong type. */
export function notAnStl(): MeshError {
  return new MeshError(
    "This file is not a valid STL file: it is neither text STL nor binary STL. Export it from your design program as STL again.",
    "invalid-type",
  );
}

export function badNumber(format: string, where: string): MeshError {
  return new MeshError(`This ${format} file has an unreadable, infinite or NaN coordinate ${where}.`, "bad-number");
}

export function notAPackage(why: string): MeshError {
  return new MeshError(`This 3MF file is not a valid package: ${why}.`, "bad-package");
}

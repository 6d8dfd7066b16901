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

export class MeshError extends Error {
  readonly code: MeshErrorCode;
  constructor(message: string, code: MeshErrorCode) {
    super(message);
    this.name = "MeshError";
    this.code = code;
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

export function badNumber(format: string, where: string): MeshError {
  return new MeshError(`This ${format} file has an unreadable, infinite or NaN coordinate ${where}.`, "bad-number");
}

export function notAPackage(why: string): MeshError {
  return new MeshError(`This 3MF file is not a valid package: ${why}.`, "bad-package");
}

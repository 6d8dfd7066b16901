// Messages between the upload page and its analysis worker.
import type { AnalysisOptions, AnalysisResult, MeshErrorCode } from "../domain/mesh";

export type DesignWorkerRequest =
  | { id: number; type: "analyze"; file: File; options: AnalysisOptions }
  | { id: number; type: "reanalyze"; options: AnalysisOptions };

export type DesignWorkerReply =
  | { id: number; ok: true; analysis: AnalysisResult; mesh: { positions: Float32Array; indices: Uint32Array | null } | null }
  | {
      id: number;
      ok: false;
      code: MeshErrorCode;
      message: string;
      /** the size-based estimate, for files the page accepts without a full reading */
      fallback: { estimatedWeight: number; estimatedTimeMinutes: number } | null;
    };

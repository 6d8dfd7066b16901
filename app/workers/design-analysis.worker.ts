// Web Worker: reads the chosen design with the same engine the server uses, off the page's main thread.
import { analyzeMesh, estimateFromFileSize, MeshError, parseModel, type Mesh, type MeshFormat } from "../domain/mesh";
import { isMeshFormat } from "../domain/mesh/types";
import type { DesignWorkerReply, DesignWorkerRequest } from "./design-analysis.protocol";

interface WorkerScope {
  onmessage: ((event: MessageEvent<DesignWorkerRequest>) => void) | null;
  postMessage(message: DesignWorkerReply, transfer?: Transferable[]): void;
}
const scope = self as unknown as WorkerScope;

// kept so a settings change re-estimates without reading the file again
let current: { mesh: Mesh; size: number; name: string } | null = null;

function formatOf(name: string): MeshFormat | null {
  const ext = name.split(".").pop()?.toLowerCase();
  return isMeshFormat(ext) ? ext : null;
}

function failure(id: number, error: unknown, size: number, name: string, material: string): DesignWorkerReply {
  const code = error instanceof MeshError ? error.code : "malformed";
  const message = error instanceof MeshError ? error.message : "The file could not be read.";
  const format = formatOf(name);
  const fallback = format ? estimateFromFileSize(size, format, material) : null;
  return { id, ok: false, code, message, fallback };
}

scope.onmessage = async (event) => {
  const request = event.data;
  if (request.type === "analyze") {
    current = null;
    const { file, options } = request;
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      const mesh = await parseModel(bytes, file.name);
      current = { mesh, size: file.size, name: file.name };
      const analysis = analyzeMesh(mesh, options);
      // copies go to the page so the worker keeps its own mesh for later settings changes
      const positions = mesh.positions.slice();
      const indices = mesh.indices ? mesh.indices.slice() : null;
      scope.postMessage(
        { id: request.id, ok: true, analysis, mesh: { positions, indices } },
        indices ? [positions.buffer, indices.buffer] : [positions.buffer],
      );
    } catch (error) {
      scope.postMessage(failure(request.id, error, file.size, file.name, options.material ?? "PLA"));
    }
    return;
  }
  if (!current) {
    scope.postMessage({ id: request.id, ok: false, code: "empty", message: "No file has been read yet.", fallback: null });
    return;
  }
  try {
    scope.postMessage({ id: request.id, ok: true, analysis: analyzeMesh(current.mesh, request.options), mesh: null });
  } catch (error) {
    scope.postMessage(failure(request.id, error, current.size, current.name, request.options.material ?? "PLA"));
  }
};

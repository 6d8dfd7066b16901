// A worker thread of the analysis pool (analysis-pool.server.ts): reads one model file per message with
// the engine in app/domain/mesh and renders its preview, off the server's request thread.
//
// Plain JavaScript on purpose: Node 20 does not apply the parent's `--import tsx` (or an execArgv one) to a
// worker's entry module, so a .ts entry fails with ERR_UNKNOWN_FILE_EXTENSION. This file needs no loader
// and loads the TypeScript engine through tsx's scoped tsImport, under `tsx server/index.ts`, plain node
// and vitest alike.
import { readFile } from "node:fs/promises";
import { parentPort } from "node:worker_threads";
import { tsImport } from "tsx/esm/api";

/** @type {typeof import("../../domain/mesh/index")} */
const engine = await tsImport(new URL("../../domain/mesh/index.ts", import.meta.url).href, import.meta.url);

/** MeshError keeps its code across the thread boundary; anything else travels as name and message. */
function serializeError(error) {
  if (error instanceof Error) {
    return {
      name: error.name,
      message: error.message,
      code: typeof error.code === "string" ? error.code : undefined,
      stack: error.stack,
    };
  }
  return { name: "Error", message: String(error) };
}

parentPort.on("message", async (job) => {
  try {
    const options = job.options ?? {};
    // as analyzeModel does: a bad option is refused before the file is parsed
    engine.resolveOptions(options);
    // a stored upload is read here, off the request thread, only when its turn comes
    const bytes = job.bytes ?? new Uint8Array(await readFile(job.path));
    const mesh = await engine.parseModel(bytes, job.fileName);
    const analysis = engine.analyzeMesh(mesh, options);
    let preview = null;
    let previewError = null;
    if (job.preview) {
      try {
        preview = engine.renderPreviewPng(mesh, job.preview);
      } catch (error) {
        previewError = serializeError(error);
      }
    }
    parentPort.postMessage({ id: job.id, ok: true, analysis, preview, previewError }, preview ? [preview.buffer] : []);
  } catch (error) {
    parentPort.postMessage({ id: job.id, ok: false, error: serializeError(error) });
  }
});

parentPort.postMessage({ type: "ready" });

import type { LoaderFunctionArgs } from "@remix-run/node";
import { countLibraryDownload, libraryModelFile } from "~/services/models/library.server";
import { getStorage } from "~/services/storage.server";
import { withApiErrors } from "~/utils/app-error.server";
import { invariantResponse, parseId } from "~/utils/misc";

const CONTENT_TYPES: Record<string, string> = {
  stl: "model/stl",
  obj: "model/obj",
  "3mf": "model/3mf",
};

/** A header-safe file name: ASCII fallback plus the exact UTF-8 name (RFC 6266). */
function contentDisposition(name: string) {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

// GET /models/library/{id}/download: the model's stored file; each download is counted (503 while the bucket is down).
export async function loader({ params }: LoaderFunctionArgs) {
  return withApiErrors(() => download(params.id));
}

async function download(idParam: string | undefined) {
  const id = parseId(idParam);
  const file = id ? await libraryModelFile(id) : null;
  const stored = file ? await getStorage().get(file.storageKey) : null;
  invariantResponse(id && file && stored, "File not found", { status: 404 });
  countLibraryDownload(id);
  return new Response(stored.stream(), {
    headers: {
      "Content-Type": CONTENT_TYPES[file.format] ?? "application/octet-stream",
      "Content-Length": String(stored.size),
      "Content-Disposition": contentDisposition(file.name),
      "Cache-Control": "private, no-store",
    },
  });
}

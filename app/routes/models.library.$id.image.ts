import type { LoaderFunctionArgs } from "@remix-run/node";
import { libraryImageKey } from "~/services/models/library.server";
import { getStorage } from "~/services/storage.server";
import { withApiErrors } from "~/utils/app-error.server";
import { invariantResponse, parseId } from "~/utils/misc";

// GET /models/library/{id}/image: the picture uploaded with a library model (type checked by its bytes on upload).
export async function loader({ params }: LoaderFunctionArgs) {
  return withApiErrors(() => picture(params.id));
}

async function picture(idParam: string | undefined) {
  const id = parseId(idParam);
  const key = id ? await libraryImageKey(id) : null;
  const stored = key ? await getStorage().get(key) : null;
  invariantResponse(stored, "Image not found", { status: 404 });
  return new Response(stored.stream(), {
    headers: {
      "Content-Type": stored.type || "application/octet-stream",
      "Content-Length": String(stored.size),
      // keys are never reused, so the picture behind a model's URL only changes if the model gets a new one
      "Cache-Control": "public, max-age=3600",
    },
  });
}

// GET /claims/{id}/photos/{index}: a claim's photo, for the parties of its order and admins only (404 for anyone else).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { IMAGE_TYPES, type ImageExtension } from "~/services/printers/images.server";
import { claimPhotoKey } from "~/services/orders/claims.server";
import { getStorage } from "~/services/storage.server";
import { withApiErrors } from "~/utils/app-error.server";
import { invariantResponse, parseId } from "~/utils/misc";
import { requireUser } from "~/utils/session.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const claimId = parseId(params.id);
  const index = Number(params.index);
  const key = claimId && Number.isInteger(index) && index >= 0 ? await claimPhotoKey(claimId, index, user) : null;
  // a bucket that is down answers 503 with Retry-After
  return withApiErrors(() => photo(key));
}

async function photo(key: string | null) {
  const stored = key ? await getStorage().get(key) : null;
  invariantResponse(key && stored, "Photo not found", { status: 404 });
  const ext = key.slice(key.lastIndexOf(".") + 1) as ImageExtension;
  return new Response(stored.stream(), {
    headers: {
      "content-type": IMAGE_TYPES[ext] ?? "application/octet-stream",
      "content-length": String(stored.size),
      "cache-control": "private, max-age=3600",
      "x-content-type-options": "nosniff",
    },
  });
}

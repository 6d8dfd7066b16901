// GET /api/print-jobs/{id}/download: the design file, for the owner of the job's printer only.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getOrderForViewer } from "~/services/orders/jobs.server";
import { getStorage } from "~/services/storage.server";
import { apiError, requireApiUser } from "~/utils/api.server";
import { parseId } from "~/utils/misc";
import { ORDER_NOT_FOUND } from "./orders.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const id = parseId(params.id);
  const view = id ? await getOrderForViewer(id, user.id) : null;
  if (!view) return apiError(404, ORDER_NOT_FOUND);
  if (view.viewerRole !== "owner") return apiError(403, "Only the printer owner can download the design file.");
  const key = view.job.fileKey;
  const file = key ? await getStorage().get(key) : null;
  if (!file) return apiError(404, "The design file is no longer stored.");
  const safeName = view.job.fileName.replace(/[^\w.\- ]+/g, "_");
  return new Response(file.stream(), {
    headers: {
      "Content-Type": "application/octet-stream",
      "Content-Length": String(file.size),
      "Content-Disposition": `attachment; filename="${safeName}"`,
      "Cache-Control": "private, no-store",
    },
  });
}

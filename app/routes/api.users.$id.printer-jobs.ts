// GET /api/users/{id}/printer-jobs: jobs sent to the signed-in owner's printers; anyone else's is 403.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { listOwnerJobs } from "~/services/orders/owner-jobs.server";
import { apiError, idParam, requireApiUser } from "~/utils/api.server";
import { jobListJson } from "./orders.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  if (idParam(params.id) !== user.id) return apiError(403, "You can only see jobs of your own printers.");
  return Response.json((await listOwnerJobs(user.id)).map(jobListJson));
}

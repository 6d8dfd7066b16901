// GET /api/printers/{id}/jobs: one printer's jobs, for its owner only (403 for anyone else).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getOrderablePrinter } from "~/services/orders/place-order.server";
import { listOwnerJobs } from "~/services/orders/owner-jobs.server";
import { apiError, idParam, requireApiUser } from "~/utils/api.server";
import { jobListJson } from "./orders.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const printer = await getOrderablePrinter(idParam(params.id));
  if (!printer) return apiError(404, "Printer not found");
  if (printer.ownerId !== user.id) return apiError(403, "Only the printer's owner can see its jobs.");
  return Response.json((await listOwnerJobs(user.id, { printerId: printer.id })).map(jobListJson));
}

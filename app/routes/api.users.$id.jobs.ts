// GET /api/users/{id}/jobs: the signed-in customer's own orders; anyone else's list is 403.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { listCustomerOrders } from "~/services/orders/jobs.server";
import { apiError, idParam, requireApiUser } from "~/utils/api.server";
import { jobListJson } from "./orders.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  if (idParam(params.id) !== user.id) return apiError(403, "You can only see your own orders.");
  return Response.json((await listCustomerOrders(user.id)).map(jobListJson));
}

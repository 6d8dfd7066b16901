import type { ActionFunctionArgs } from "@remix-run/node";
import { startWeightCaching } from "~/services/catalogue/import.server";
import { startJobFromApi } from "~/routes/admin-api.server";

// POST /api/thingiverse/calculate-weights: starts the background job and answers at once (202) with it.
export async function action({ request }: ActionFunctionArgs) {
  return startJobFromApi(request, (body) => startWeightCaching(body as never));
}

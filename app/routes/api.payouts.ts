// GET /api/payouts: the owner's finished orders not yet paid out, eligible or held (with why).
// POST /api/payouts: "Request payout for all": one transfer per eligible order; what was sent, held and refused.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { payoutOverviewFor, requestPayoutsForAll } from "~/services/orders/payouts.server";
import { methodNotAllowed, requireApiUser } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  return withApiErrors(async () => Response.json(await payoutOverviewFor(user)));
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  const user = await requireApiUser(request);
  return withApiErrors(async () => Response.json(await requestPayoutsForAll(user)));
}

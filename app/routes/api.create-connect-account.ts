// POST /api/create-connect-account: a payout account for the signed-in printer owner, or the one
// already started. Answers {accountId, onboardingUrl, ready}: until ready, onboardingUrl is a fresh
// link to continue Stripe's setup (the test provider's account is ready at once).
import type { ActionFunctionArgs } from "@remix-run/node";
import { connectPayoutAccount } from "~/services/orders/payouts.server";
import { methodNotAllowed, requireApiUser } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request);
  return withApiErrors(async () => Response.json(await connectPayoutAccount(user, new URL(request.url).origin)));
}

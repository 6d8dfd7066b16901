import type { ActionFunctionArgs } from "@remix-run/node";
import { registerAccount } from "~/services/accounts/sign-in.server";
import { answerWithSession } from "~/utils/api-auth.server";
import { methodNotAllowed, readJson } from "~/utils/api.server";
import { clientIp } from "~/utils/rate-limit.server";

// POST /api/register {username, email, password, newsletterSubscribed?}: the new user, signed in.
export async function action({ request }: ActionFunctionArgs) {
  const body = await readJson(request);
  return answerWithSession(request, () => registerAccount(body, clientIp(request)), 201);
}

export const loader = () => methodNotAllowed("POST");

import type { ActionFunctionArgs } from "@remix-run/node";
import { answerWithSession } from "~/utils/api-auth.server";
import { methodNotAllowed, readJson } from "~/utils/api.server";
import { registerAccount } from "~/utils/auth.server";

// POST /api/register {username, email, password, newsletterSubscribed?}: the new user, signed in.
export async function action({ request }: ActionFunctionArgs) {
  const body = await readJson(request);
  return answerWithSession(request, () => registerAccount(body, request), 201);
}

export const loader = () => methodNotAllowed("POST");

import type { ActionFunctionArgs } from "@remix-run/node";
import { loginWithPassword } from "~/services/accounts/sign-in.server";
import { answerWithSession } from "~/utils/api-auth.server";
import { methodNotAllowed, readJson } from "~/utils/api.server";
import { clientIp } from "~/utils/rate-limit.server";

// POST /api/login {email, password}: the user object, with a new session cookie.
export async function action({ request }: ActionFunctionArgs) {
  const body = await readJson(request);
  return answerWithSession(request, () => loginWithPassword({ email: body.email, password: body.password }, clientIp(request)));
}

export const loader = () => methodNotAllowed("POST");

import type { ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/utils/api.server";
import { destroyUserSession } from "~/utils/session.server";

// POST /api/logout: deletes the session row and clears the cookie.
export async function action({ request }: ActionFunctionArgs) {
  return Response.json({ message: "Signed out" }, { headers: { "set-cookie": await destroyUserSession(request) } });
}

export const loader = () => methodNotAllowed("POST");

import type { LoaderFunctionArgs } from "@remix-run/node";
import { publicUser, requireApiUser } from "~/utils/api.server";

// GET /api/auth/user: the signed-in user, or 401.
export async function loader({ request }: LoaderFunctionArgs) {
  return Response.json(publicUser(await requireApiUser(request)));
}

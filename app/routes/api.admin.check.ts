import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/utils/api.server";

// GET /api/admin/check: {isAdmin} for the signed-in user.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  return Response.json({ isAdmin: user.isAdmin });
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiError, idParam, requireApiUser } from "~/utils/api.server";
import { listNotifications } from "~/services/notifications.server";

// GET /api/users/{id}/notifications: only one's own.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  if (idParam(params.id) !== user.id) return apiError(403, "You can only read your own notifications.");
  return Response.json(await listNotifications(user.id));
}

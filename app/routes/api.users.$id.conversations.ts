import type { LoaderFunctionArgs } from "@remix-run/node";
import { listConversations } from "~/services/conversations.server";
import { apiError, idParam, requireApiUser } from "~/utils/api.server";

// GET /api/users/{id}/conversations: only one's own, the most recent first.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  if (idParam(params.id) !== user.id) return apiError(403, "You can only read your own conversations.");
  return Response.json(await listConversations(user.id));
}

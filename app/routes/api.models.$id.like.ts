import type { ActionFunctionArgs } from "@remix-run/node";
import { MODEL_NOT_FOUND, parseModelId, toggleLike } from "~/services/models.server";
import { apiError, requireApiUser } from "~/utils/api.server";

// POST /api/models/{id}/like (empty body): toggles the signed-in user's like of a library model.
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(400, "Use POST to like a model.");
  const user = await requireApiUser(request);
  const id = parseModelId(params.id);
  const result = id ? await toggleLike(id, user.id) : null;
  if (!result) return apiError(404, MODEL_NOT_FOUND);
  return Response.json(result);
}

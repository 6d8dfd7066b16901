import type { LoaderFunctionArgs } from "@remix-run/node";
import { getViewerState, libraryModelExists, MODEL_NOT_FOUND, parseModelId } from "~/services/models.server";
import { apiError, requireApiUser } from "~/utils/api.server";

// GET /api/models/library/{id}/like-status: { liked } for the signed-in user.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const id = parseModelId(params.id);
  if (!id || !(await libraryModelExists(id))) return apiError(404, MODEL_NOT_FOUND);
  const { liked } = await getViewerState(id, user.id);
  return Response.json({ liked });
}

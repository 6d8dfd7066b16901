import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiModelDetail, getModelDetail, MODEL_NOT_FOUND, parseModelId } from "~/services/models.server";
import { apiError } from "~/utils/api.server";

// GET /api/models/{id}: a library model (document 000: a model's source defaults to library).
export async function loader({ params }: LoaderFunctionArgs) {
  const id = parseModelId(params.id);
  const { model } = id ? await getModelDetail("library", id) : { model: null };
  if (!model) return apiError(404, MODEL_NOT_FOUND);
  return Response.json(apiModelDetail(model));
}

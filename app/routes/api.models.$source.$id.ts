import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiModelDetail, getModelDetail, MODEL_NOT_FOUND, parseModelId, parseModelSource } from "~/services/models.server";
import { apiError } from "~/utils/api.server";

// GET /api/models/{source}/{id}: one library model (with comments) or catalogue model (id = its sourceId).
export async function loader({ params, request }: LoaderFunctionArgs) {
  const source = parseModelSource(params.source);
  const id = parseModelId(params.id);
  if (!source || !id) return apiError(404, MODEL_NOT_FOUND);
  const { model } = await getModelDetail(source, id, { request });
  if (!model) return apiError(404, MODEL_NOT_FOUND);
  return Response.json(apiModelDetail(model));
}

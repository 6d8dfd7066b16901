import type { LoaderFunctionArgs } from "@remix-run/node";
import { AppError } from "~/domain/app-error";
import { MODEL_NOT_FOUND } from "~/domain/models";
import { apiModelDetail } from "~/services/models/api-shapes";
import { getModelDetail } from "~/services/models/detail.server";
import { withApiErrors } from "~/utils/app-error.server";
import { parseId } from "~/utils/misc";

// GET /api/models/{id}: a library model (a model's source defaults to library).
export async function loader({ params }: LoaderFunctionArgs) {
  return withApiErrors(async () => {
    const id = parseId(params.id);
    const { model } = id ? await getModelDetail("library", id) : { model: null };
    if (!model) throw new AppError("not_found", MODEL_NOT_FOUND);
    return Response.json(apiModelDetail(model));
  });
}

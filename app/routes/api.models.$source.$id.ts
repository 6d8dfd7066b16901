import type { LoaderFunctionArgs } from "@remix-run/node";
import { AppError } from "~/domain/app-error";
import { MODEL_NOT_FOUND, parseModelSource } from "~/domain/models";
import { apiModelDetail } from "~/services/models/api-shapes";
import { getModelDetail } from "~/services/models/detail.server";
import { withApiErrors } from "~/utils/app-error.server";
import { parseId } from "~/utils/misc";
import { visitorOf } from "~/utils/session.server";

// GET /api/models/{source}/{id}: one library model (with comments) or catalogue model (id = its sourceId).
export async function loader({ params, request }: LoaderFunctionArgs) {
  return withApiErrors(async () => {
    const source = parseModelSource(params.source);
    const id = parseId(params.id);
    const { model } = source && id ? await getModelDetail(source, id, { visitor: await visitorOf(request) }) : { model: null };
    if (!model) throw new AppError("not_found", MODEL_NOT_FOUND);
    return Response.json(apiModelDetail(model));
  });
}

import type { ActionFunctionArgs } from "@remix-run/node";
import { AppError } from "~/domain/app-error";
import { MODEL_NOT_FOUND } from "~/domain/models";
import { toggleLike } from "~/services/models/feedback.server";
import { methodNotAllowed, requireApiUser } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";
import { parseId } from "~/utils/misc";

// POST /api/models/{id}/like (empty body): toggles the signed-in user's like of a library model.
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return withApiErrors(async () => {
    const user = await requireApiUser(request);
    const id = parseId(params.id);
    const result = id ? await toggleLike(id, user.id) : null;
    if (!result) throw new AppError("not_found", MODEL_NOT_FOUND);
    return Response.json(result);
  });
}

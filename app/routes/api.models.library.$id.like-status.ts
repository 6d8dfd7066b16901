import type { LoaderFunctionArgs } from "@remix-run/node";
import { AppError } from "~/domain/app-error";
import { MODEL_NOT_FOUND } from "~/domain/models";
import { getViewerState } from "~/services/models/detail.server";
import { libraryModelExists } from "~/services/models/feedback.server";
import { requireApiUser } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";
import { parseId } from "~/utils/misc";

// GET /api/models/library/{id}/like-status: { liked } for the signed-in user.
export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApiErrors(async () => {
    const user = await requireApiUser(request);
    const id = parseId(params.id);
    if (!id || !(await libraryModelExists(id))) throw new AppError("not_found", MODEL_NOT_FOUND);
    const { liked } = await getViewerState(id, user.id);
    return Response.json({ liked });
  });
}

import type { ActionFunctionArgs } from "@remix-run/node";
import { AppError } from "~/domain/app-error";
import { deleteComment } from "~/services/models/feedback.server";
import { methodNotAllowed, requireApiUser } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";
import { parseId } from "~/utils/misc";

// DELETE /api/models/{id}/comments/{commentId}: the comment's author or an admin deletes it (204).
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed("DELETE");
  return withApiErrors(async () => {
    const user = await requireApiUser(request);
    const modelId = parseId(params.id);
    const commentId = parseId(params.commentId);
    const deleted = modelId && commentId ? await deleteComment(modelId, commentId, user) : null;
    if (!deleted) throw new AppError("not_found", "Comment not found");
    return new Response(null, { status: 204 });
  });
}

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { AppError } from "~/domain/app-error";
import { CommentPayloadSchema } from "~/domain/model-feedback";
import { MODEL_NOT_FOUND } from "~/domain/models";
import { getModelDetail } from "~/services/models/detail.server";
import { addComment } from "~/services/models/feedback.server";
import { methodNotAllowed, readJson, requireApiUser } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";
import { parseId } from "~/utils/misc";

// GET /api/models/{id}/comments: a library model's comments, newest first.
export async function loader({ params }: LoaderFunctionArgs) {
  return withApiErrors(async () => {
    const id = parseId(params.id);
    const { model } = id ? await getModelDetail("library", id) : { model: null };
    if (!model) throw new AppError("not_found", MODEL_NOT_FOUND);
    return Response.json(model.comments);
  });
}

// POST /api/models/{id}/comments { comment }: 201 with the comment; blank text is refused.
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  return withApiErrors(async () => {
    const user = await requireApiUser(request);
    const id = parseId(params.id);
    if (!id) throw new AppError("not_found", MODEL_NOT_FOUND);
    const parsed = CommentPayloadSchema.safeParse(await readJson(request));
    if (!parsed.success) throw new AppError("invalid", parsed.error.issues[0]?.message ?? "Invalid comment.");
    const comment = await addComment(id, user.id, parsed.data.comment);
    if (!comment) throw new AppError("not_found", MODEL_NOT_FOUND);
    return Response.json(comment, { status: 201 });
  });
}

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { COMMENT_MAX_LENGTH } from "~/components/model-feedback";
import { addComment, getModelDetail, MODEL_NOT_FOUND, parseModelId } from "~/services/models.server";
import { apiError, readJson, requireApiUser } from "~/utils/api.server";

const CommentPayload = z.object({
  comment: z
    .string({ required_error: "Comment text is required.", invalid_type_error: "Comment text is required." })
    .trim()
    .min(1, "Comment text is required.")
    .max(COMMENT_MAX_LENGTH, `Comments are at most ${COMMENT_MAX_LENGTH} characters.`),
});

// GET /api/models/{id}/comments: a library model's comments, newest first.
export async function loader({ params }: LoaderFunctionArgs) {
  const id = parseModelId(params.id);
  const { model } = id ? await getModelDetail("library", id) : { model: null };
  if (!model) return apiError(404, MODEL_NOT_FOUND);
  return Response.json(model.comments);
}

// POST /api/models/{id}/comments { comment }: 201 with the comment; blank text is refused.
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(400, "Use POST to comment.");
  const user = await requireApiUser(request);
  const id = parseModelId(params.id);
  if (!id) return apiError(404, MODEL_NOT_FOUND);
  const parsed = CommentPayload.safeParse(await readJson(request));
  if (!parsed.success) return apiError(400, parsed.error.issues[0]?.message ?? "Invalid comment.");
  const comment = await addComment(id, user.id, parsed.data.comment);
  if (!comment) return apiError(404, MODEL_NOT_FOUND);
  return Response.json(comment, { status: 201 });
}

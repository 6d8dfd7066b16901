import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { COMMENT_MAX_LENGTH } from "~/components/model-feedback";
import { MODEL_NOT_FOUND, parseModelId, rateModel } from "~/services/models.server";
import { apiError, readJson, requireApiUser } from "~/utils/api.server";

const RatingPayload = z.object({
  rating: z
    .number({
      required_error: "rating must be a whole number from 1 to 5.",
      invalid_type_error: "rating must be a whole number from 1 to 5.",
    })
    .int("rating must be a whole number from 1 to 5.")
    .min(1, "rating must be a whole number from 1 to 5.")
    .max(5, "rating must be a whole number from 1 to 5."),
  review: z.string().max(COMMENT_MAX_LENGTH, `Reviews are at most ${COMMENT_MAX_LENGTH} characters.`).nullish(),
  hasPrinted: z.boolean().optional(),
});

// POST /api/models/{id}/ratings { rating, review?, hasPrinted }: one rating per user, a second one updates it.
// The model's own creator gets 403 { message: "You can't rate your own model." } (thrown by rateModel).
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(400, "Use POST to rate a model.");
  const user = await requireApiUser(request);
  const id = parseModelId(params.id);
  if (!id) return apiError(404, MODEL_NOT_FOUND);
  const parsed = RatingPayload.safeParse(await readJson(request));
  if (!parsed.success) return apiError(400, parsed.error.issues[0]?.message ?? "Invalid rating.");
  const result = await rateModel(id, user.id, parsed.data);
  if (!result) return apiError(404, MODEL_NOT_FOUND);
  return Response.json(result);
}

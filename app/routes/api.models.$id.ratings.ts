import type { ActionFunctionArgs } from "@remix-run/node";
import { AppError } from "~/domain/app-error";
import { RatingPayloadSchema } from "~/domain/model-feedback";
import { MODEL_NOT_FOUND } from "~/domain/models";
import { rateModel } from "~/services/models/feedback.server";
import { methodNotAllowed, readJson, requireApiUser } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";
import { parseId } from "~/utils/misc";

// POST /api/models/{id}/ratings { rating, review?, hasPrinted }: one rating per user, a second one updates it.
// The model's own creator gets 403 { message: "You can't rate your own model." } (rateModel refuses it).
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return withApiErrors(async () => {
    const user = await requireApiUser(request);
    const id = parseId(params.id);
    if (!id) throw new AppError("not_found", MODEL_NOT_FOUND);
    const parsed = RatingPayloadSchema.safeParse(await readJson(request));
    if (!parsed.success) throw new AppError("invalid", parsed.error.issues[0]?.message ?? "Invalid rating.");
    const result = await rateModel(id, user.id, parsed.data);
    if (!result) throw new AppError("not_found", MODEL_NOT_FOUND);
    return Response.json(result);
  });
}

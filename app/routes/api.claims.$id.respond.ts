// POST /api/claims/{id}/respond {action: "refund_full" | "refund_partial" | "reprint" | "decline", amountCents?, message}:
// the printer's owner answers an open claim.
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { CLAIM_MESSAGE_MAX, OWNER_RESPONSES } from "~/domain/claims";
import { CLAIM_NOT_FOUND, respondToClaim } from "~/services/orders/claims.server";
import { apiError, idParam, methodNotAllowed, readJson, requireApiUser } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";
import { invalidBody } from "./claims.server";

const RespondSchema = z.object({
  action: z.enum(OWNER_RESPONSES, { errorMap: () => ({ message: "Choose an answer" }) }),
  amountCents: z.number().int("Give the amount in whole cents").positive("Enter the amount to refund").optional(),
  message: z.string({ required_error: "Write a message" }).trim().min(1, "Write a message").max(CLAIM_MESSAGE_MAX),
});

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request);
  const claimId = idParam(params.id);
  return withApiErrors(async () => {
    const parsed = RespondSchema.safeParse(await readJson(request, 16 * 1024));
    if (!parsed.success) throw invalidBody(parsed.error);
    const answered = await respondToClaim({ userId: user.id, claimId, ...parsed.data });
    return answered ? Response.json(answered) : apiError(404, CLAIM_NOT_FOUND);
  });
}

// POST /api/admin/claims/{id}/decide {refundCents, note}: an admin decides an escalated claim (0: no refund).
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { CLAIM_MESSAGE_MAX } from "~/domain/claims";
import { CLAIM_NOT_FOUND, decideClaim } from "~/services/orders/claims.server";
import { apiError, idParam, methodNotAllowed, readJson, requireApiAdmin } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";
import { invalidBody } from "./claims.server";

const DecideSchema = z.object({
  refundCents: z.number({ required_error: "Give the refund in cents (0 for none)" }).int("Give the refund in whole cents").min(0),
  note: z.string({ required_error: "Write a note" }).trim().min(1, "Write a note").max(CLAIM_MESSAGE_MAX),
});

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const admin = await requireApiAdmin(request);
  const claimId = idParam(params.id);
  return withApiErrors(async () => {
    const parsed = DecideSchema.safeParse(await readJson(request, 16 * 1024));
    if (!parsed.success) throw invalidBody(parsed.error);
    const decided = await decideClaim({ adminId: admin.id, claimId, ...parsed.data });
    return decided ? Response.json(decided) : apiError(404, CLAIM_NOT_FOUND);
  });
}

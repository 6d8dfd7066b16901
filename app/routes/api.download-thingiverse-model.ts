// POST /api/download-thingiverse-model {thingiverseId, modelData}: fetches the model's printable file and makes a draft.
// modelData is ignored: the licence and files come from the catalogue itself, never from the client.
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { draftFromCatalogueModel } from "~/services/designs/sources.server";
import { choosePrinterUrlFor } from "~/services/designs/drafts.server";
import { apiError, methodNotAllowed, readJson, requireApiUser } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";

const BodySchema = z.object({
  thingiverseId: z.coerce
    .number({ invalid_type_error: "thingiverseId must be a Thingiverse thing id." })
    .int()
    .positive("thingiverseId must be a Thingiverse thing id."),
});

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return withApiErrors(async () => {
    const user = await requireApiUser(request);
    const body = BodySchema.safeParse(await readJson(request));
    if (!body.success) return apiError(400, body.error.issues[0]?.message ?? "thingiverseId is required.");
    const draft = await draftFromCatalogueModel(user.id, body.data.thingiverseId);
    return Response.json({ draftId: draft.id, jobId: draft.id, redirectTo: choosePrinterUrlFor(draft.id) });
  });
}

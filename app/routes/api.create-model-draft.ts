// POST /api/create-model-draft {modelId}: a draft from a library model's stored file; answers draftId.
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { draftFromLibraryModel } from "~/services/designs/sources.server";
import { choosePrinterUrlFor } from "~/services/designs/drafts.server";
import { apiError, methodNotAllowed, readJson, requireApiUser } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";

const BodySchema = z.object({
  modelId: z.coerce.number({ invalid_type_error: "modelId must be a model id." }).int().positive("modelId must be a model id."),
});

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return withApiErrors(async () => {
    const user = await requireApiUser(request);
    const body = BodySchema.safeParse(await readJson(request));
    if (!body.success) return apiError(400, body.error.issues[0]?.message ?? "modelId is required.");
    const draft = await draftFromLibraryModel(user.id, body.data.modelId);
    return Response.json({ draftId: draft.id, jobId: draft.id, redirectTo: choosePrinterUrlFor(draft.id) });
  });
}

// GET, PUT and DELETE /api/drafts/{id}: only the owner's drafts exist here; anything else is 404. GET also
// answers `price`, the draft's price as every page shows it (its printer's total, or the range near the customer).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { deleteDraft } from "~/services/designs/draft-writes.server";
import { draftPrices } from "~/services/designs/draft-prices.server";
import { getOwnDraft } from "~/services/designs/drafts.server";
import { apiError, idParam, methodNotAllowed, requireApiUser } from "~/utils/api.server";
import { createToastHeader } from "~/utils/toast.server";
import { designApiAnswer, draftJson } from "./upload/upload.server";

const NOT_FOUND = "Draft not found";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const draft = await getOwnDraft(user.id, idParam(params.id));
  if (!draft) return apiError(404, NOT_FOUND);
  const price = (await draftPrices([draft], user)).get(draft.id) ?? null;
  return Response.json({ ...draftJson(draft), price });
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PUT" && request.method !== "DELETE") return methodNotAllowed("GET, PUT, DELETE");
  const user = await requireApiUser(request);
  const draftId = idParam(params.id);
  if (request.method === "DELETE") {
    if (!(await deleteDraft(user.id, draftId))) return apiError(404, NOT_FOUND);
    return Response.json(
      { message: "Draft Deleted", id: draftId },
      { headers: { "set-cookie": await createToastHeader({ title: "Draft Deleted" }) } },
    );
  }
  const draft = await getOwnDraft(user.id, draftId);
  if (!draft) return apiError(404, NOT_FOUND);
  return designApiAnswer(request, { user, draft });
}

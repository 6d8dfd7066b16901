// GET /api/users/{id}/drafts: a customer's own drafts; anyone else's list is 403.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { listDrafts } from "~/services/designs/drafts.server";
import { draftSummaryJson } from "./upload/upload.server";
import { apiError, idParam, requireApiUser } from "~/utils/api.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const userId = idParam(params.id);
  if (userId !== user.id) return apiError(403, "You can only see your own drafts.");
  const drafts = await listDrafts(user.id);
  return Response.json(drafts.map(draftSummaryJson));
}

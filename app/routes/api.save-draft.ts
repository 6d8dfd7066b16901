// POST /api/save-draft (document 001 §7): multipart design + settings, saved as a draft; answers jobId.
import type { ActionFunctionArgs } from "@remix-run/node";
import { designApiResponse, handleDesignPost, methodNotAllowed } from "~/services/designs.server";
import { requireApiUser } from "~/utils/api.server";

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request);
  return designApiResponse(await handleDesignPost(request, { user, intent: "save" }));
}

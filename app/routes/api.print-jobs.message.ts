import type { ActionFunctionArgs } from "@remix-run/node";
import { sendJobMessage } from "~/services/conversations.server";
import { apiError, methodNotAllowed, readJson, requireApiUser } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";
import { parseId } from "~/utils/misc";

// POST /api/print-jobs/message { jobId, message }: 201 with the message; 404 unless the caller is
// the job's customer or its printer's owner.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request);
  return withApiErrors(async () => {
    const body = await readJson(request, 16 * 1024);
    const jobId = parseId(body.jobId);
    if (!jobId) return apiError(400, "jobId is required.");
    const message = await sendJobMessage({ jobId, senderId: user.id, content: body.message ?? body.content });
    return Response.json(message, { status: 201 });
  });
}

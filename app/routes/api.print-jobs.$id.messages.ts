import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { listJobMessages, sendJobMessage } from "~/services/conversations.server";
import { apiError, idParam, methodNotAllowed, readJson, requireApiUser } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";

const NOT_FOUND = "Order not found.";

// GET /api/print-jobs/{id}/messages: the job's messages, oldest first, for its customer or its
// printer's owner (404 for anyone else). Reading them marks the other party's messages read.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const list = await listJobMessages(idParam(params.id), user.id, { markRead: true });
  if (!list) return apiError(404, NOT_FOUND);
  return Response.json(list);
}

// POST /api/print-jobs/{id}/messages { message }: 201 with the message.
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  const user = await requireApiUser(request);
  const jobId = idParam(params.id);
  return withApiErrors(async () => {
    const body = await readJson(request, 16 * 1024);
    const message = await sendJobMessage({ jobId, senderId: user.id, content: body.message ?? body.content });
    return Response.json(message, { status: 201 });
  });
}

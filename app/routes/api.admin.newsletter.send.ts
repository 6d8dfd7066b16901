import type { ActionFunctionArgs } from "@remix-run/node";
import { sendNewsletter } from "~/services/newsletter.server";
import { startJobFromApi } from "~/routes/admin-api.server";

// POST /api/admin/newsletter/send {subject, content, segment}: {recipientCount} and the sending job, at once.
export async function action({ request }: ActionFunctionArgs) {
  let recipientCount = 0;
  const response = await startJobFromApi(request, async (body, adminId) => {
    const sent = await sendNewsletter(body, adminId);
    recipientCount = sent.recipientCount;
    return { id: sent.jobId };
  });
  if (response.status !== 202) return response;
  return Response.json({ recipientCount, ...(await response.json()) }, { status: 202 });
}

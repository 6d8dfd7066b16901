// The answer of a page action whose send box (ConversationThread) posted: it sends through the
// conversation service, then redirects with "Message Sent", or answers conform's { result } with
// the mapper's status: the reason on the message field and the typed text kept in initialValue.
import { parseWithZod } from "@conform-to/zod";
import { z } from "zod";
import { isAppError } from "~/domain/app-error";
import { MESSAGE_FIELD, MESSAGE_SENT_TOAST } from "~/domain/messages";
import { sendJobMessage } from "~/services/conversations.server";
import { replyWithError } from "~/utils/app-error.server";
import { invariantResponse } from "~/utils/misc";
import { redirectWithToast } from "~/utils/toast.server";

// the service judges the text; the schema only carries the post into conform's reply
const MessageFormSchema = z.object({ [MESSAGE_FIELD]: z.string().optional() });

export async function answerMessageForm(input: {
  jobId: number;
  senderId: number;
  formData: FormData;
  /** where to go after sending (usually the page itself) */
  redirectTo: string;
  /** a page that answers a job it can't show with its 404 page passes that page's text */
  notFound?: string;
}) {
  const content = input.formData.get(MESSAGE_FIELD);
  const submission = parseWithZod(input.formData, { schema: MessageFormSchema });
  try {
    await sendJobMessage({ jobId: input.jobId, senderId: input.senderId, content });
    return redirectWithToast(input.redirectTo, { title: MESSAGE_SENT_TOAST });
  } catch (error) {
    if (!isAppError(error)) throw error;
    if (input.notFound) invariantResponse(error.code !== "not_found", input.notFound, { status: 404 });
    // the page shows the refusal beside the box at once (a flashed toast would only show on the next page)
    return replyWithError(submission, error);
  }
}

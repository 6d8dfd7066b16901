// The answer of a page action whose send box (ConversationThread) posted: it sends through the
// conversation service, then redirects with "Message Sent", or answers 4xx with "Failed to Send
// Message" (shown by the thread beside its box), the reason and the typed text so the box keeps it.
import { data } from "@remix-run/node";
import { isAppError } from "~/domain/app-error";
import { MESSAGE_FAILED_DEFAULT, MESSAGE_FIELD, MESSAGE_SENT_TOAST } from "~/domain/messages";
import { sendJobMessage } from "~/services/conversations.server";
import { httpStatusOf, retryHeaders } from "~/utils/app-error.server";
import { redirectWithToast } from "~/utils/toast.server";

/** What the page's view gets back after a refused send: pass both to ConversationThread. */
export interface MessageFormResult {
  messageError: string;
  messageDraft: string;
}

export async function answerMessageForm(input: {
  jobId: number;
  senderId: number;
  formData: FormData;
  /** where to go after sending (usually the page itself) */
  redirectTo: string;
}) {
  const content = input.formData.get(MESSAGE_FIELD);
  try {
    await sendJobMessage({ jobId: input.jobId, senderId: input.senderId, content });
    return redirectWithToast(input.redirectTo, { title: MESSAGE_SENT_TOAST });
  } catch (error) {
    if (!isAppError(error)) throw error;
    const result: MessageFormResult = {
      messageError: error.message || MESSAGE_FAILED_DEFAULT,
      messageDraft: typeof content === "string" ? content : "",
    };
    // the page shows the refusal beside the box at once (a flashed toast would only show on the next page)
    return data(result, { status: httpStatusOf(error), headers: retryHeaders(error) });
  }
}

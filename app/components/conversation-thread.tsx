// A job's message thread with its send box, for any page that shows a conversation (/messages,
// /order/{id}). The page feeds it the messages and the action to post to; without JavaScript the
// send box is a plain form post, with it Enter sends and Shift+Enter adds a line.
import type { SubmissionResult } from "@conform-to/react";
import { Form } from "./form";
import { useEffect, useId, useRef, type KeyboardEvent } from "react";
import {
  displayName,
  MESSAGE_FAILED_DEFAULT,
  MESSAGE_FAILED_TOAST,
  MESSAGE_FIELD,
  MESSAGE_MAX_LENGTH,
  SEND_MESSAGE_INTENT,
  type ThreadMessage,
} from "~/domain/messages";
import { ErrorList } from "./forms";
import { LocalTime } from "./local-time";
import { FailureToast } from "./toaster";
import { useIsPending } from "~/utils/misc-react";

export interface ConversationThreadProps {
  messages: ThreadMessage[];
  /** the signed-in user: their messages sit on the right */
  currentUserId: number;
  /** where the send box posts (the page's own action when left out) */
  action?: string;
  /** the intent the send button posts, for pages whose action handles several */
  intent?: string;
  /** more fields the page's action needs (e.g. jobId) */
  hiddenFields?: Record<string, string | number>;
  /** the last send's refusal (conform's result): its reason shows under the box, the typed text goes back in (without JavaScript the page reloads) */
  lastResult?: SubmissionResult | null;
  /** false hides the send box (e.g. a closed conversation) */
  canSend?: boolean;
  /** what the list says with no message yet */
  emptyText?: string;
}

export function ConversationThread({
  messages,
  currentUserId,
  action,
  intent = SEND_MESSAGE_INTENT,
  hiddenFields,
  lastResult,
  canSend = true,
  emptyText = "No messages yet. Say hello and ask anything about this print.",
}: ConversationThreadProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const fieldId = useId();
  const errors = refusalOf(lastResult);
  const error = errors?.join(" ");
  const errorId = errors ? `${fieldId}-error` : undefined;
  const draft = lastResult?.initialValue?.[MESSAGE_FIELD];
  const sending = useIsPending({ intent, formAction: action });
  const wasSending = useRef(false);

  // clear the box once a send went through (a refused one keeps the text and shows why)
  useEffect(() => {
    if (wasSending.current && !sending && !error) formRef.current?.reset();
    wasSending.current = sending;
  }, [sending, error]);

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (!event.currentTarget.value.trim() || sending) return;
    formRef.current?.requestSubmit();
  }

  return (
    <div className="flex flex-col gap-3" data-testid="conversation-thread">
      {/* a refused send is also raised as a destructive toast; the box keeps the typed text */}
      {error ? <FailureToast title={MESSAGE_FAILED_TOAST} description={error} /> : null}
      {/* newest at the bottom; column-reverse keeps the scroll there without JavaScript */}
      <div
        className="flex max-h-64 min-h-24 flex-col-reverse overflow-y-auto rounded-lg border border-slate-200 bg-slate-50 p-3"
        role="log"
        aria-live="polite"
        aria-label="Messages"
      >
        {messages.length === 0 ? (
          <p className="m-auto text-sm text-slate-500">{emptyText}</p>
        ) : (
          <ol className="flex flex-col gap-2">
            {messages.map((m) => {
              const mine = m.senderId === currentUserId;
              return (
                <li
                  key={m.id}
                  className={`flex flex-col ${mine ? "items-end" : "items-start"}`}
                  data-testid="thread-message"
                  data-mine={mine ? "true" : "false"}
                >
                  <div
                    className={`max-w-[85%] whitespace-pre-wrap break-words rounded-lg px-3 py-2 text-sm ${
                      mine ? "bg-brand-600 text-white" : "border border-slate-200 bg-white text-slate-900"
                    }`}
                  >
                    {m.content}
                  </div>
                  <span className="mt-0.5 text-xs text-slate-500">
                    {mine ? "You" : displayName(m.sender)} · <LocalTime value={m.sentAt} />
                  </span>
                </li>
              );
            })}
          </ol>
        )}
      </div>
      {canSend ? (
        <Form method="post" action={action} ref={formRef} preventScrollReset className="flex flex-col gap-2">
          <input type="hidden" name="intent" value={intent} />
          {Object.entries(hiddenFields ?? {}).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <label htmlFor={fieldId} className="sr-only">
            Message
          </label>
          <textarea
            id={fieldId}
            name={MESSAGE_FIELD}
            required
            maxLength={MESSAGE_MAX_LENGTH}
            defaultValue={typeof draft === "string" ? draft : undefined}
            onKeyDown={onKeyDown}
            placeholder="Type your message… (Enter sends, Shift+Enter adds a line)"
            className="input min-h-[88px] resize-y"
            aria-invalid={errorId ? true : undefined}
            aria-describedby={errorId}
            data-testid="message-input"
          />
          {errors ? (
            <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
              <p className="font-semibold">{MESSAGE_FAILED_TOAST}</p>
              <ErrorList id={errorId} errors={errors} />
            </div>
          ) : null}
          <div className="flex justify-end">
            <button type="submit" className="btn-primary" disabled={sending}>
              {sending ? "Sending…" : "Send"}
            </button>
          </div>
        </Form>
      ) : null}
    </div>
  );
}

/** A refused send's reasons: the message field's and the form's, or the default when it names none. */
function refusalOf(result: SubmissionResult | null | undefined): string[] | undefined {
  if (result?.status !== "error") return undefined;
  const reasons = [...(result.error?.[""] ?? []), ...(result.error?.[MESSAGE_FIELD] ?? [])];
  return reasons.length ? reasons : [MESSAGE_FAILED_DEFAULT];
}

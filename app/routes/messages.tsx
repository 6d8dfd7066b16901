import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/link";
import { ConversationThread } from "~/components/conversation-thread";
import { ErrorPage, GeneralErrorBoundary } from "~/components/error-boundary";
import { MESSAGE_AFTER_PAYMENT, SEND_MESSAGE_INTENT, type ConversationSummary } from "~/domain/messages";
import { emptySummary, getJobConversation, listConversations, openThread } from "~/services/conversations.server";
import { LocalTime } from "~/components/local-time";
import { countUnreadMessages } from "~/services/notifications.server";
import { answerMessageForm } from "~/routes/message-form.server";
import { invariantResponse, parseId } from "~/utils/misc";
import { requireUser } from "~/utils/session.server";

export const meta: MetaFunction = () => [{ title: "Messages | Printnear" }];

const NOT_FOUND = "This conversation doesn't exist or you don't have access to it.";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const jobParam = new URL(request.url).searchParams.get("jobId");
  let open: {
    conversation: NonNullable<Awaited<ReturnType<typeof getJobConversation>>>;
    thread: Awaited<ReturnType<typeof openThread>>;
  } | null = null;
  if (jobParam !== null) {
    const jobId = parseId(jobParam);
    const conversation = jobId ? await getJobConversation(jobId, user.id) : null;
    invariantResponse(conversation, NOT_FOUND, { status: 404 });
    // opening the thread marks it read first, so the list and the header count agree
    open = { conversation, thread: await openThread(conversation.jobId, user.id) };
  }
  // the root loader's count stands unless this request marked messages read
  const [conversations, unread] = await Promise.all([
    listConversations(user.id),
    open && open.thread.markedRead > 0 ? countUnreadMessages(user.id) : undefined,
  ]);
  if (open && !conversations.some((c) => c.jobId === open.conversation.jobId)) {
    conversations.unshift(emptySummary(open.conversation));
  }
  return {
    userId: user.id,
    headerUnreadMessages: unread,
    conversations,
    open: open
      ? {
          jobId: open.conversation.jobId,
          jobFileName: open.conversation.jobFileName,
          otherUserName: open.conversation.otherUserName,
          printerName: open.conversation.printerName,
          role: open.conversation.role,
          canMessage: open.conversation.reachedOwner,
          messages: open.thread.messages,
        }
      : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const formData = await request.formData();
  const jobId = parseId(formData.get("jobId"));
  invariantResponse(formData.get("intent") === SEND_MESSAGE_INTENT && jobId, "Bad Request");
  return answerMessageForm({ jobId, senderId: user.id, formData, redirectTo: `/messages?jobId=${jobId}` });
}

export default function MessagesPage() {
  const { userId, conversations, open } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  return (
    <div className="container-page py-8">
      <h1 className="text-2xl font-bold">Messages</h1>
      <p className="text-slate-600">Talk with your printer owner or your customer about a print.</p>
      <div className="mt-6 grid grid-cols-1 gap-6 md:grid-cols-[20rem_minmax(0,1fr)]">
        <nav aria-label="Conversations" className={open ? "hidden md:block" : ""}>
          {conversations.length === 0 ? (
            <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-500">
              No conversations yet. When you order a print, or a customer orders from your printer, you can write to each other
              here.
            </p>
          ) : (
            <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200" data-testid="conversation-list">
              {conversations.map((c) => (
                <ConversationItem key={c.jobId} conversation={c} active={c.jobId === open?.jobId} />
              ))}
            </ul>
          )}
        </nav>
        <section aria-label="Conversation" className="min-w-0">
          {open ? (
            <div className="rounded-lg border border-slate-200 p-4">
              <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
                <div className="min-w-0">
                  <h2 className="truncate text-lg font-semibold" data-testid="thread-title">
                    {open.jobFileName}
                  </h2>
                  <p className="text-sm text-slate-600">
                    {open.role === "customer" ? "Printer owner" : "Customer"}: {open.otherUserName} · {open.printerName}
                  </p>
                </div>
                <div className="flex gap-3 text-sm">
                  <Link to="/messages" className="text-brand-700 hover:underline md:hidden">
                    All conversations
                  </Link>
                  <Link to={`/order/${open.jobId}`} className="text-brand-700 hover:underline">
                    View order
                  </Link>
                </div>
              </div>
              <ConversationThread
                key={open.jobId}
                messages={open.messages}
                currentUserId={userId}
                action={`/messages?jobId=${open.jobId}`}
                hiddenFields={{ jobId: open.jobId }}
                lastResult={refused?.result}
                canSend={open.canMessage}
                emptyText={open.canMessage ? undefined : MESSAGE_AFTER_PAYMENT}
              />
            </div>
          ) : (
            <p className="hidden rounded-lg border border-dashed border-slate-300 p-10 text-center text-slate-500 md:block">
              Choose a conversation to read and reply.
            </p>
          )}
        </section>
      </div>
    </div>
  );
}

function ConversationItem({ conversation: c, active }: { conversation: ConversationSummary; active: boolean }) {
  return (
    <li>
      <Link
        to={`/messages?jobId=${c.jobId}`}
        aria-current={active ? "page" : undefined}
        className={`block p-3 hover:bg-slate-50 ${active ? "bg-brand-50" : ""}`}
        data-testid="conversation-item"
      >
        <div className="flex items-baseline justify-between gap-2">
          <span className="min-w-0 truncate font-medium">{c.jobFileName}</span>
          {c.unreadCount > 0 ? (
            <span className="rounded-full bg-brand-600 px-2 text-xs font-semibold text-white" data-testid="conversation-unread">
              <span className="sr-only">Unread: </span>
              {c.unreadCount}
            </span>
          ) : null}
        </div>
        <p className="truncate text-sm text-slate-600">
          {c.otherUserName} · {c.printerName}
        </p>
        {c.lastMessage ? <p className="truncate text-sm text-slate-600">{c.lastMessage}</p> : null}
        {c.lastMessageAt ? (
          <p className="text-xs text-slate-600">
            <LocalTime value={c.lastMessageAt} />
          </p>
        ) : null}
      </Link>
    </li>
  );
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: () => (
          <ErrorPage heading="Conversation Not Found" message={NOT_FOUND}>
            <Link to="/messages" className="btn-primary">
              All conversations
            </Link>
          </ErrorPage>
        ),
      }}
    />
  );
}

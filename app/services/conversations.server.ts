// Conversations: one per print job, between the job's customer and its printer's owner and no
// one else. Pages (/messages, /order/{id}) and the API read and send through these functions;
// anyone who is not a party gets null (a 404 for them: saying "exists" would leak). The owner is
// a party only once the order was paid (reachedOwnerSql); before that the customer can't write.
import { and, eq, isNull, ne, sql } from "drizzle-orm";
import { messages, users } from "../../db/schema";
import { AppError } from "~/domain/app-error";
import { MessageText } from "~/domain/message-text";
import {
  displayName,
  MESSAGE_AFTER_PAYMENT,
  type ConversationSummary,
  type SenderType,
  type ThreadMessage,
} from "~/domain/messages";
import { getClient, getDb, preparedQuery, unlessWriteLocked } from "~/utils/db.server";
import { closeMailBatch } from "./mail/index.server";
import { notify } from "./notifications.server";
import { havePaidOrderBetween, reachedOwnerSql } from "./orders/jobs.server";
import { limitReceived, limitWrite } from "./write-limits.server";

/** A job's conversation as one of its parties sees it. */
export interface JobConversation {
  jobId: number;
  jobFileName: string;
  jobStatus: string;
  printerId: number;
  printerName: string;
  customerId: number;
  ownerId: number;
  /** the caller's side of the conversation */
  role: SenderType;
  otherUserId: number;
  otherUserName: string;
  /** the order was paid, so its owner hears about it: until then nobody can write */
  reachedOwner: boolean;
}

/**
 * The conversation of a job for this user, or null when there is none for them: the job does not
 * exist, is still a draft, has no printer, or the user is neither its customer nor its owner (an
 * owner of an order that was never paid is not).
 */
export async function getJobConversation(jobId: number, userId: number): Promise<JobConversation | null> {
  const client = await getClient();
  const result = await client.execute({
    sql: `SELECT j.id AS job_id, j.file_name, j.status, j.customer_id, p.id AS printer_id, p.name AS printer_name,
                 p.owner_id, c.first_name AS c_first, c.last_name AS c_last, c.username AS c_username,
                 o.first_name AS o_first, o.last_name AS o_last, o.username AS o_username,
                 ${reachedOwnerSql("j")} AS reached_owner
          FROM print_jobs j
          JOIN printers p ON p.id = j.printer_id
          JOIN users c ON c.id = j.customer_id
          JOIN users o ON o.id = p.owner_id
          WHERE j.id = ?1 AND j.status <> 'draft' AND (j.customer_id = ?2 OR (p.owner_id = ?2 AND ${reachedOwnerSql("j")}))`,
    args: [jobId, userId],
  });
  const row = result.rows[0];
  if (!row) return null;
  const customerId = Number(row.customer_id);
  const ownerId = Number(row.owner_id);
  // an owner ordering from their own printer talks to themself as the customer
  const role: SenderType = customerId === userId ? "customer" : "printer";
  const customerName = displayName({
    firstName: row.c_first as string | null,
    lastName: row.c_last as string | null,
    username: row.c_username as string,
  });
  const ownerName = displayName({
    firstName: row.o_first as string | null,
    lastName: row.o_last as string | null,
    username: row.o_username as string,
  });
  return {
    jobId: Number(row.job_id),
    jobFileName: String(row.file_name),
    jobStatus: String(row.status),
    printerId: Number(row.printer_id),
    printerName: String(row.printer_name),
    customerId,
    ownerId,
    role,
    otherUserId: role === "customer" ? ownerId : customerId,
    otherUserName: role === "customer" ? ownerName : customerName,
    reachedOwner: Number(row.reached_owner) === 1,
  };
}

function toThreadMessage(row: {
  id: number;
  senderId: number;
  firstName: string | null;
  lastName: string | null;
  senderType: SenderType;
  content: string;
  sentAt: Date;
  readAt: Date | null;
}): ThreadMessage {
  return {
    id: row.id,
    senderId: row.senderId,
    sender: { firstName: row.firstName, lastName: row.lastName },
    senderType: row.senderType,
    content: row.content,
    message: row.content,
    sentAt: row.sentAt.toISOString(),
    readAt: row.readAt ? row.readAt.toISOString() : null,
  };
}

/** The most messages a thread loads at once (the newest ones). */
export const THREAD_LIMIT = 200;

/** A thread's newest messages: the order page and an open conversation read it on every view. */
const newestMessages = preparedQuery((db) =>
  db
    .select({
      id: messages.id,
      senderId: messages.senderId,
      firstName: users.firstName,
      lastName: users.lastName,
      senderType: messages.senderType,
      content: messages.content,
      sentAt: messages.sentAt,
      readAt: messages.readAt,
    })
    .from(messages)
    .innerJoin(users, eq(users.id, messages.senderId))
    .where(eq(messages.jobId, sql.placeholder("jobId")))
    .orderBy(sql`${messages.sentAt} DESC, ${messages.id} DESC`)
    .limit(THREAD_LIMIT)
    .prepare(),
);

async function threadMessages(jobId: number): Promise<ThreadMessage[]> {
  const rows = await newestMessages(await getDb()).all({ jobId });
  return rows.reverse().map(toThreadMessage);
}

/**
 * A job's messages, oldest first, for one of its parties; null for anyone else. With markRead
 * (opening the thread), the messages the other party sent are marked read.
 */
export async function listJobMessages(
  jobId: number,
  userId: number,
  options: { markRead?: boolean } = {},
): Promise<ThreadMessage[] | null> {
  const conversation = await getJobConversation(jobId, userId);
  if (!conversation) return null;
  return options.markRead ? (await openThread(jobId, userId)).messages : threadMessages(jobId);
}

/**
 * A party opens a job's thread (the caller has checked that `readerId` is one): its messages, oldest first,
 * with the other party's unread ones marked read. Nothing is written when the thread shows nothing unread;
 * `markedRead` says how many were marked, so a page knows whether the header's count changed.
 */
export async function openThread(jobId: number, readerId: number): Promise<{ messages: ThreadMessage[]; markedRead: number }> {
  const thread = await threadMessages(jobId);
  // unread messages are the other party's newest (each opening marks them all); a full thread may hide older ones
  const unread = thread.length === THREAD_LIMIT || thread.some((m) => m.senderId !== readerId && m.readAt === null);
  if (!unread) return { messages: thread, markedRead: 0 };
  // opening a thread must not wait for a held write lock: the thread then stays unread until the next visit
  const marked = await unlessWriteLocked(
    () => markThreadRead(jobId, readerId),
    () => [],
  );
  const readAt = new Map(marked.map((m) => [m.id, m.readAt]));
  return {
    messages: thread.map((m) => (readAt.has(m.id) ? { ...m, readAt: readAt.get(m.id)?.toISOString() ?? null } : m)),
    markedRead: marked.length,
  };
}

/** The e-mail batch of one reader's conversation: at most one "New Message" e-mail per window. */
function messageBatchKey(readerId: number, jobId: number): string {
  return `message:${readerId}:job:${jobId}`;
}

/**
 * Marks the other party's messages read, answering those it marked. When there were unread ones, the reader
 * has caught up, so the conversation's e-mail window closes: the next message is e-mailed at once, not
 * swallowed by a window that opened before the reader came.
 */
export async function markThreadRead(jobId: number, userId: number): Promise<Array<{ id: number; readAt: Date | null }>> {
  const db = await getDb();
  const marked = await db
    .update(messages)
    .set({ readAt: new Date() })
    .where(and(eq(messages.jobId, jobId), ne(messages.senderId, userId), isNull(messages.readAt)))
    .returning({ id: messages.id, readAt: messages.readAt });
  if (marked.length > 0) await closeMailBatch(messageBatchKey(userId, jobId));
  return marked;
}

/**
 * Writing to someone with no paid order between you (an order cancelled or rejected) is counted
 * for the writer and for the person written to, so neither one account nor many can flood anyone.
 */
async function limitUnsolicited(conversation: JobConversation, senderId: number) {
  if (await havePaidOrderBetween(senderId, conversation.otherUserId)) return;
  await limitWrite(senderId, "unsolicited");
  const client = await getClient();
  const earlier = await client.execute({ sql: "SELECT 1 FROM messages WHERE job_id = ? LIMIT 1", args: [conversation.jobId] });
  if (earlier.rows.length === 0) await limitReceived(conversation.otherUserId, "conversation");
  await limitReceived(conversation.otherUserId, "notification");
}

/**
 * Sends a message in a job's conversation. Throws AppError: not_found for anyone but the job's
 * customer and owner, conflict before the order is paid, invalid for blank or over-long text,
 * rate_limited past the sender's limits or the recipient's (from people with no paid order).
 */
export async function sendJobMessage(input: { jobId: number; senderId: number; content: unknown }): Promise<ThreadMessage> {
  const conversation = await getJobConversation(input.jobId, input.senderId);
  if (!conversation) throw new AppError("not_found", "Order not found.");
  // an unpaid order is not the owner's business: nothing of it reaches them, words included
  if (!conversation.reachedOwner) throw new AppError("conflict", MESSAGE_AFTER_PAYMENT);
  const text = MessageText.safeParse(input.content);
  if (!text.success) throw new AppError("invalid", text.error.issues[0]?.message ?? "Invalid message.", { field: "message" });
  await limitWrite(input.senderId, "message");
  if (conversation.otherUserId !== input.senderId) await limitUnsolicited(conversation, input.senderId);
  const db = await getDb();
  const [row] = await db
    .insert(messages)
    .values({ jobId: conversation.jobId, senderId: input.senderId, senderType: conversation.role, content: text.data })
    .returning();
  const [sender] = await db
    .select({ firstName: users.firstName, lastName: users.lastName, username: users.username })
    .from(users)
    .where(eq(users.id, input.senderId));
  if (conversation.otherUserId !== input.senderId) {
    await notify(
      conversation.otherUserId,
      "New Message",
      `${displayName(sender ?? {})} wrote about ${conversation.jobFileName}.`,
      `/messages?jobId=${conversation.jobId}`,
      // one e-mail per conversation per 15 minutes, however many messages arrive
      { kind: "message", batchKey: messageBatchKey(conversation.otherUserId, conversation.jobId) },
    );
  }
  return toThreadMessage({ ...row, firstName: sender?.firstName ?? null, lastName: sender?.lastName ?? null });
}

/** The most conversations a list shows. */
export const CONVERSATION_LIMIT = 100;

/**
 * The user's conversations (jobs with at least one message where the user is the customer or
 * the printer's owner), the most recent first (the newest message written last), with the other
 * party, the last message and how many of the other party's messages are unread.
 */
export async function listConversations(userId: number): Promise<ConversationSummary[]> {
  const client = await getClient();
  // `newest` reads the orders' kept newest message id (print_jobs.last_message_id, drizzle/0016) from the newest end
  // of the user's two thread indexes, a page from each side; only those conversations are read whole. Grouping every
  // message of every order of the user cost 11 ms a view at 3,000 conversations (decision 036). From the owner's
  // printers to their jobs: CROSS JOIN keeps that order.
  const result = await client.execute({
    sql: `WITH newest AS (
            SELECT id, last_message_id FROM (
              SELECT j.id, j.last_message_id FROM print_jobs j
              WHERE j.customer_id = ?1 AND j.last_message_id IS NOT NULL AND j.status <> 'draft' AND j.printer_id IS NOT NULL
              ORDER BY j.last_message_id DESC LIMIT ?2)
            UNION
            SELECT id, last_message_id FROM (
              SELECT j.id, j.last_message_id FROM printers p CROSS JOIN print_jobs j
              WHERE p.owner_id = ?1 AND j.printer_id = p.id AND j.last_message_id IS NOT NULL AND ${reachedOwnerSql("j")}
              ORDER BY j.last_message_id DESC LIMIT ?2)
            ORDER BY last_message_id DESC LIMIT ?2
          )
          SELECT j.id AS job_id, j.file_name, p.name AS printer_name,
                 (SELECT count(*) FROM messages m WHERE m.job_id = j.id AND m.read_at IS NULL AND m.sender_id <> ?1) AS unread,
                 lm.content AS last_message, lm.sent_at AS last_message_at,
                 u.first_name, u.last_name, u.username
          FROM newest
          JOIN print_jobs j ON j.id = newest.id
          JOIN printers p ON p.id = j.printer_id
          JOIN messages lm ON lm.id = newest.last_message_id
          JOIN users u ON u.id = CASE WHEN j.customer_id = ?1 THEN p.owner_id ELSE j.customer_id END
          ORDER BY newest.last_message_id DESC`,
    args: [userId, CONVERSATION_LIMIT],
  });
  return result.rows.map((row) => ({
    jobId: Number(row.job_id),
    jobFileName: String(row.file_name),
    otherUserName: displayName({
      firstName: row.first_name as string | null,
      lastName: row.last_name as string | null,
      username: row.username as string,
    }),
    printerName: String(row.printer_name),
    lastMessage: row.last_message == null ? null : String(row.last_message),
    lastMessageAt: row.last_message_at == null ? null : new Date(Number(row.last_message_at)).toISOString(),
    unreadCount: Number(row.unread ?? 0),
  }));
}

/** A conversation's summary for a job that has no message yet (so a page can still open it). */
export function emptySummary(conversation: JobConversation): ConversationSummary {
  return {
    jobId: conversation.jobId,
    jobFileName: conversation.jobFileName,
    otherUserName: conversation.otherUserName,
    printerName: conversation.printerName,
    lastMessage: null,
    lastMessageAt: null,
    unreadCount: 0,
  };
}

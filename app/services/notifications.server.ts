// Notifications: the bell, /notifications and e-mail. notify() stores the notification (the bell
// and the live stream pick it up) and queues an e-mail for its kind unless the user turned that
// kind off on /profile. Message e-mails are batched: at most one per conversation per 15 minutes.
import type { InStatement } from "@libsql/client";
import { and, count, desc, eq, sql } from "drizzle-orm";
import { siteUrl } from "~/utils/env.server";
import { notifications, users } from "../../db/schema";
import { isNotificationKind, wantsEmail, type NotificationKind } from "~/domain/notification-kinds";
import type { HeaderNotification } from "~/domain/signed-in-user";
import { oneLine } from "~/domain/one-line";
import { getClient, getDb, preparedQuery } from "~/utils/db.server";
import { readRows } from "~/utils/read-rows.server";
import { mailStatements } from "./mail/index.server";
import { reachedOwnerSql } from "./orders/jobs.server";

export const MESSAGE_EMAIL_WINDOW_MS = 15 * 60 * 1000;
export const EMAIL_SETTINGS_PATH = "/profile#email-settings";

/** A user's newest notifications: the bell asks on every signed-in page. */
const notificationsQuery = preparedQuery((db) =>
  db
    .select({
      id: notifications.id,
      title: notifications.title,
      message: notifications.message,
      link: notifications.link,
      isRead: notifications.isRead,
      createdAt: notifications.createdAt,
    })
    .from(notifications)
    .where(eq(notifications.userId, sql.placeholder("userId")))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(sql.placeholder("limit"))
    .prepare(),
);

export async function listNotifications(userId: number, limit = 50) {
  return notificationsQuery(await getDb()).all({ userId, limit });
}

export async function countUnreadNotifications(userId: number): Promise<number> {
  const db = await getDb();
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.isRead, false)));
  return row?.n ?? 0;
}

/** The kind of a notification whose caller didn't say: from its link and title. */
export function inferKind(title: string, link?: string | null): NotificationKind {
  if (link?.startsWith("/messages")) return "message";
  if (/payout/i.test(title)) return "payout";
  if (/new order|order request/i.test(title)) return "order_request";
  return "order_update";
}

export interface NotifyOptions {
  kind?: NotificationKind;
  /** e-mails of one key are batched: at most one per window (messages: one per conversation) */
  batchKey?: string;
}

/**
 * Tells a user something happened: a notification in the bell and on /notifications, and an
 * e-mail unless they turned its kind off. The notification, the message batch's window and the
 * queued e-mail task are written in one batch: all of them or none, so a failure never leaves a
 * used-up window without its mail, nor a bell entry whose e-mail was silently dropped. The e-mail
 * is only queued here (the job runner sends it), so a slow mail server never slows the caller.
 */
export async function notify(userId: number, title: string, message: string, link?: string, options: NotifyOptions = {}) {
  const kind = options.kind && isNotificationKind(options.kind) ? options.kind : inferKind(title, link);
  const db = await getDb();
  const [user] = await db
    .select({ email: users.email, firstName: users.firstName, emailOff: users.emailOff })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) return;
  const now = Date.now();
  const statements: InStatement[] = [
    {
      sql: "INSERT INTO notifications (user_id, title, message, link, kind, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      args: [userId, title, message, link ?? null, kind, now],
    },
  ];
  if (wantsEmail(user.emailOff, kind)) {
    const batchKey = options.batchKey ?? (kind === "message" && link ? `message:${userId}:${link}` : undefined);
    statements.push(
      ...mailStatements(
        {
          to: user.email,
          subject: oneLine(`${title} | Printnear`),
          ...notificationEmail({ firstName: user.firstName, title, message, link }),
          batchKey,
          batchWindowMs: batchKey ? MESSAGE_EMAIL_WINDOW_MS : undefined,
        },
        now,
      ),
    );
  }
  const client = await getClient();
  await client.batch(statements, "write");
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/**
 * The plain-text and HTML parts: what happened, a link to the page it is about, and one to the settings.
 * Names and the message are kept on their own line, so no text a user typed can add lines of its own.
 */
export function notificationEmail(input: {
  firstName: string | null;
  title: string;
  message: string;
  link?: string | null;
  /** detail lines under the message (a receipt's items and total) */
  lines?: string[];
  /** a receipt is sent whatever the notification settings say, and its footer says why */
  receipt?: boolean;
}) {
  const base = siteUrl();
  const page = `${base}${input.link && input.link.startsWith("/") ? input.link : "/dashboard"}`;
  const settings = `${base}${EMAIL_SETTINGS_PATH}`;
  const firstName = oneLine(input.firstName ?? "").trim();
  const hello = firstName ? `Hi ${firstName},` : "Hi,";
  const message = oneLine(input.message);
  const lines = (input.lines ?? []).map(oneLine);
  const footer = input.receipt
    ? "You get this receipt because you paid for an order on Printnear."
    : `You get this e-mail because of your Printnear notification settings. Change them here: ${settings}`;
  const text = [
    hello,
    "",
    message,
    ...(lines.length ? ["", ...lines] : []),
    "",
    `Open it on Printnear: ${page}`,
    "",
    "--",
    footer,
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a">
<p>${escapeHtml(hello)}</p>
<p><strong>${escapeHtml(oneLine(input.title))}</strong></p>
<p>${escapeHtml(message)}</p>
${lines.length ? `<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>` : ""}
<p><a href="${escapeHtml(page)}" style="display:inline-block;padding:10px 16px;background:#1f57d0;color:#fff;border-radius:6px;text-decoration:none">Open on Printnear</a></p>
<hr style="border:none;border-top:1px solid #e2e8f0">
<p style="font-size:12px;color:#64748b">${
    input.receipt
      ? escapeHtml(footer)
      : `You get this e-mail because of your Printnear notification settings. <a href="${escapeHtml(settings)}">Change which e-mails you get</a>.`
  }</p>
</body></html>`;
  return { text, html, headers: input.receipt ? undefined : { "List-Unsubscribe": `<${settings}>` } };
}

export async function markNotificationsRead(userId: number, ids?: number[]) {
  const db = await getDb();
  const mine = eq(notifications.userId, userId);
  await db
    .update(notifications)
    .set({ isRead: true })
    .where(ids?.length ? and(mine, sql`${notifications.id} IN ${ids}`) : mine);
}

/**
 * The count of unread messages as an SQL expression over parameter ?1, the user: counted once for both readers
 * below. Messages in the orders the user placed, and in the paid orders of the user's printers that the user did
 * not place, sent by someone else and not yet read. It starts from the user's unread messages (the index
 * messages_recipient_idx on recipient_id and read_at, drizzle/0015_unread_by_recipient.sql), so its cost follows what is unread,
 * not how many orders the user ever had: starting from each of the user's orders cost 2 ms a page at 3,000 of them,
 * and starting from a status index cost 80 ms at 50,000 jobs in the marketplace (decision 036). Every message
 * counted here was written to the user: in the user's own order the other party wrote it, in an order at the
 * user's printer its customer did.
 */
const UNREAD_MESSAGES_OF_USER_1 = `(SELECT count(*) FROM messages m JOIN print_jobs j ON j.id = m.job_id
     WHERE m.recipient_id = ?1 AND m.read_at IS NULL AND m.sender_id <> ?1
       AND (j.customer_id = ?1
         OR (${reachedOwnerSql("j")} AND j.printer_id IN (SELECT id FROM printers WHERE owner_id = ?1))))`;

/** Messages in the user's conversations (as customer or printer owner) that someone else sent and nobody read. */
export async function countUnreadMessages(userId: number): Promise<number> {
  const client = await getClient();
  const result = await client.execute({ sql: `SELECT ${UNREAD_MESSAGES_OF_USER_1} AS n`, args: [userId] });
  return Number(result.rows[0]?.n ?? 0);
}

/**
 * What the header shows of a user, in one statement (the root loader runs it on every signed-in page): the
 * `newest` notifications of the bell, as listNotifications lists them, and both badges' counts: unread
 * notifications, and unread messages of the user's conversations, counted as countUnreadNotifications and
 * countUnreadMessages count them.
 */
export async function readHeader(
  userId: number,
  newest: number,
): Promise<{ notifications: HeaderNotification[]; unreadNotifications: number; unreadMessages: number }> {
  const [row] = await readRows({
    sql: `SELECT
            (SELECT count(*) FROM notifications WHERE user_id = ?1 AND is_read = 0) AS notifications,
            ${UNREAD_MESSAGES_OF_USER_1} AS messages,
            (SELECT json_group_array(json_array(id, title, message, link, is_read, created_at) ORDER BY created_at DESC, id DESC)
             FROM (SELECT id, title, message, link, is_read, created_at FROM notifications
                   WHERE user_id = ?1 ORDER BY created_at DESC, id DESC LIMIT ?2)) AS newest`,
    args: [userId, newest],
  });
  const rows = JSON.parse(String(row?.newest ?? "[]")) as [number, string, string, string | null, number, number][];
  return {
    notifications: rows.map(([id, title, message, link, isRead, createdAt]) => ({
      id,
      title,
      message,
      link,
      isRead: isRead === 1,
      createdAt: new Date(createdAt),
    })),
    unreadNotifications: Number(row?.notifications ?? 0),
    unreadMessages: Number(row?.messages ?? 0),
  };
}

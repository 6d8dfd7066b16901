// Notifications and unread counts for the header bell and the API.
import { and, count, desc, eq, sql } from "drizzle-orm";
import { notifications } from "../../db/schema";
import { getClient, getDb } from "./db.server";

export async function listNotifications(userId: number, limit = 50) {
  const db = await getDb();
  return db
    .select({
      id: notifications.id,
      title: notifications.title,
      message: notifications.message,
      link: notifications.link,
      isRead: notifications.isRead,
      createdAt: notifications.createdAt,
    })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit);
}

export async function countUnreadNotifications(userId: number): Promise<number> {
  const db = await getDb();
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.isRead, false)));
  return row?.n ?? 0;
}

export async function notify(userId: number, title: string, message: string, link?: string) {
  const db = await getDb();
  await db.insert(notifications).values({ userId, title, message, link });
}

export async function markNotificationsRead(userId: number, ids?: number[]) {
  const db = await getDb();
  const mine = eq(notifications.userId, userId);
  await db
    .update(notifications)
    .set({ isRead: true })
    .where(ids?.length ? and(mine, sql`${notifications.id} IN ${ids}`) : mine);
}

/** Messages in the user's conversations (as customer or printer owner) that someone else sent and nobody read. */
export async function countUnreadMessages(userId: number): Promise<number> {
  const client = await getClient();
  const result = await client.execute({
    sql: `SELECT count(*) AS n FROM messages m
          JOIN print_jobs j ON j.id = m.job_id
          LEFT JOIN printers p ON p.id = j.printer_id
          WHERE m.read_at IS NULL AND m.sender_id <> ?1 AND (j.customer_id = ?1 OR p.owner_id = ?1)`,
    args: [userId],
  });
  return Number(result.rows[0]?.n ?? 0);
}

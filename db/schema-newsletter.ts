// The newsletter's subscribers and campaigns. db/schema.ts re-exports them, so drizzle and the
// migrations see one schema.
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { NEWSLETTER_SEGMENTS, SUBSCRIBER_INTERESTS } from "../app/domain/newsletter";
import { now, oneOf, stamp } from "./schema-columns";
import { users } from "./schema";

export const newsletterSubscribers = sqliteTable(
  "newsletter_subscribers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    email: text("email").notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    interest: text("interest", { enum: SUBSCRIBER_INTERESTS }).notNull().default("unknown"),
    unsubscribeToken: text("unsubscribe_token").notNull().unique(),
    /** double opt-in: the token of the confirmation e-mail; only confirmed subscribers get campaigns */
    confirmToken: text("confirm_token").unique(),
    confirmedAt: stamp("confirmed_at"),
    subscribedAt: stamp("subscribed_at").notNull().default(now),
    unsubscribedAt: stamp("unsubscribed_at"),
  },
  (t) => [
    uniqueIndex("newsletter_subscribers_email_unique").on(sql`lower(${t.email})`),
    check("newsletter_subscribers_interest_check", oneOf("interest", SUBSCRIBER_INTERESTS)),
  ],
);

export const newsletterCampaigns = sqliteTable(
  "newsletter_campaigns",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    subject: text("subject").notNull(),
    /** sanitised HTML */
    content: text("content").notNull(),
    segment: text("segment", { enum: NEWSLETTER_SEGMENTS }).notNull(),
    recipientCount: integer("recipient_count").notNull().default(0),
    sentById: integer("sent_by_id").references(() => users.id, { onDelete: "set null" }),
    sentAt: stamp("sent_at").notNull().default(now),
  },
  (t) => [
    index("newsletter_campaigns_sent_idx").on(t.sentAt),
    check("newsletter_campaigns_segment_check", oneOf("segment", NEWSLETTER_SEGMENTS)),
  ],
);

// Newsletter: double opt-in subscriptions (footer form, sign-up checkbox), segments as the
// product decisions define them, sanitised campaigns sent as a background job through the mail
// service (delivered inside the campaign job, so its outcome is what the mail server accepted), one-click unsubscribe links with List-Unsubscribe headers.
import { randomBytes, randomUUID } from "node:crypto";
import { siteUrl } from "~/utils/env.server";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import sanitizeHtml from "sanitize-html";
import { newsletterCampaigns, newsletterSubscribers } from "../../db/schema";
import { NEWSLETTER_SEGMENTS } from "~/domain/newsletter";
import { AppError } from "~/domain/app-error";
import { NEWSLETTER_TASK } from "~/domain/background-jobs";
import { enqueueTask, PermanentTaskError, registerTaskHandler } from "~/services/jobs/index.server";
import { queueMail } from "~/services/mail/index.server";
import { mailDelivery, mailFrom } from "~/services/mail/transport.server";
import { getClient, getDb } from "~/utils/db.server";

export type NewsletterSegment = (typeof NEWSLETTER_SEGMENTS)[number];
export const SUBSCRIBE_INTERESTS = { customer: "buyer", printer_owner: "printer_owner", investor: "investor" } as const;
export type SubscribeInterest = keyof typeof SUBSCRIBE_INTERESTS;

const token = () => randomBytes(24).toString("base64url");

// ------------------------------------------------------------------------------------------
// Sanitising
// ------------------------------------------------------------------------------------------

const COLOR = [/^#[0-9a-f]{3,8}$/i, /^rgba?\(\s*[\d.\s,%]+\)$/i, /^[a-z]+$/i];
const SIZE = [/^\d{1,3}(\.\d+)?(px|em|rem|%)$/, /^(x{0,2}-small|small|medium|large|x{0,3}-large|smaller|larger)$/];

/**
 * The inline styles a newsletter may use: text colour and emphasis only. Anything that could
 * place, hide or cover content (position, display, margins, sizes, z-index ...) is dropped.
 */
const ALLOWED_STYLES: sanitizeHtml.IOptions["allowedStyles"] = {
  "*": {
    color: COLOR,
    "background-color": COLOR,
    "font-weight": [/^(normal|bold|bolder|lighter|[1-9]00)$/],
    "font-style": [/^(normal|italic|oblique)$/],
    "text-align": [/^(left|right|center|justify)$/],
    "text-decoration": [/^(none|underline|line-through|overline)$/],
    "font-size": SIZE,
  },
};

/** Admin-written HTML made safe for e-mail and preview: no scripts, event handlers, javascript: URLs or layout CSS. */
export function sanitizeNewsletterHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [...sanitizeHtml.defaults.allowedTags.filter((t) => t !== "iframe"), "img", "h1", "h2", "span", "center"],
    allowedAttributes: {
      a: ["href", "title", "target", "rel"],
      img: ["src", "alt", "width", "height", "title"],
      "*": ["style", "align"],
      td: ["colspan", "rowspan", "align", "valign", "style"],
      th: ["colspan", "rowspan", "align", "valign", "style"],
    },
    allowedStyles: ALLOWED_STYLES,
    allowedSchemes: ["https", "http", "mailto"],
    allowedSchemesByTag: { img: ["https", "http"] },
    allowProtocolRelative: false,
    disallowedTagsMode: "discard",
  });
}

/** Plain text of the HTML for the text part of each e-mail. */
export function textOf(html: string): string {
  return sanitizeHtml(html.replace(/<\/(p|div|h\d|li|tr)>|<br\s*\/?>/gi, "\n"), { allowedTags: [], allowedAttributes: {} })
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

// ------------------------------------------------------------------------------------------
// Subscribing
// ------------------------------------------------------------------------------------------

/**
 * Records a subscription and sends the confirmation e-mail (double opt-in). The same answer
 * whatever the address's state, so the form never tells who is subscribed.
 */
export async function subscribe(input: { email: string; interest?: SubscribeInterest; userId?: number | null }) {
  const email = input.email.trim().toLowerCase();
  const interest = SUBSCRIBE_INTERESTS[input.interest ?? "customer"] ?? "unknown";
  const db = await getDb();
  const confirmToken = token();
  const [row] = await db
    .insert(newsletterSubscribers)
    .values({ email, interest, userId: input.userId ?? null, unsubscribeToken: token(), confirmToken })
    .onConflictDoUpdate({
      target: sql`lower(${newsletterSubscribers.email})`,
      set: {
        interest,
        userId: sql`coalesce(${newsletterSubscribers.userId}, excluded.user_id)`,
        // a subscribed or waiting address keeps its link (every confirmation e-mail sent stays valid);
        // an unsubscribed one starts over, waiting for a new link
        confirmToken: sql`CASE WHEN ${newsletterSubscribers.unsubscribedAt} IS NULL AND ${newsletterSubscribers.confirmToken} IS NOT NULL THEN ${newsletterSubscribers.confirmToken} ELSE excluded.confirm_token END`,
        confirmedAt: sql`CASE WHEN ${newsletterSubscribers.unsubscribedAt} IS NULL THEN ${newsletterSubscribers.confirmedAt} ELSE NULL END`,
        unsubscribedAt: null,
      },
    })
    .returning();
  if (row.confirmedAt && !row.unsubscribedAt) return;
  const link = `${siteUrl()}/newsletter/confirm?token=${encodeURIComponent(row.confirmToken ?? confirmToken)}`;
  await queueMail({
    to: email,
    subject: "Confirm your Printnear newsletter subscription",
    text: `Please confirm that you want the Printnear newsletter:\n${link}\n\nIf you did not ask for it, ignore this e-mail.`,
    html: `<p>Please confirm that you want the Printnear newsletter:</p><p><a href="${link}">Confirm my subscription</a></p><p>If you did not ask for it, ignore this e-mail.</p>`,
    // a form submitted again and again sends one confirmation per link per 10 minutes
    batchKey: `newsletter-confirm:${email}:${row.confirmToken ?? confirmToken}`,
    batchWindowMs: 10 * 60_000,
  });
}

/** The confirmation link's button; an unsubscribed address comes back only by subscribing again (a new link). */
export async function confirmSubscription(confirmToken: string): Promise<boolean> {
  if (!confirmToken) return false;
  const db = await getDb();
  const rows = await db
    .update(newsletterSubscribers)
    .set({ confirmedAt: new Date() })
    .where(and(eq(newsletterSubscribers.confirmToken, confirmToken), isNull(newsletterSubscribers.unsubscribedAt)))
    .returning({ id: newsletterSubscribers.id });
  return rows.length > 0;
}

export async function unsubscribe(unsubscribeToken: string): Promise<boolean> {
  if (!unsubscribeToken) return false;
  const db = await getDb();
  const rows = await db
    .update(newsletterSubscribers)
    // the confirmation link goes with it: an old e-mail's link must not subscribe the address again
    .set({
      unsubscribedAt: sql`coalesce(${newsletterSubscribers.unsubscribedAt}, cast(unixepoch('subsec') * 1000 as integer))`,
      confirmToken: null,
    })
    .where(eq(newsletterSubscribers.unsubscribeToken, unsubscribeToken))
    .returning({ id: newsletterSubscribers.id });
  return rows.length > 0;
}

// ------------------------------------------------------------------------------------------
// Segments
// ------------------------------------------------------------------------------------------

// a subscriber is one of our users by link or by e-mail address
const SAME_USER = "(u.id = s.user_id OR lower(u.email) = lower(s.email))";
const IS_BUYER = `EXISTS (SELECT 1 FROM users u JOIN print_jobs j ON j.customer_id = u.id JOIN payments p ON p.job_id = j.id
  WHERE ${SAME_USER} AND p.status IN ('authorized', 'captured', 'refunded'))`;
const IS_OWNER = `EXISTS (SELECT 1 FROM users u JOIN printers pr ON pr.owner_id = u.id WHERE ${SAME_USER})`;
const IS_INVESTOR = "s.interest = 'investor'";
const ACTIVE = "s.confirmed_at IS NOT NULL AND s.unsubscribed_at IS NULL";

const SEGMENT_WHERE: Record<NewsletterSegment, string> = {
  all: "1",
  buyers: IS_BUYER,
  printer_owners: IS_OWNER,
  investors: IS_INVESTOR,
  unknown: `NOT (${IS_BUYER}) AND NOT (${IS_OWNER}) AND NOT (${IS_INVESTOR})`,
};

export function isSegment(value: unknown): value is NewsletterSegment {
  return typeof value === "string" && (NEWSLETTER_SEGMENTS as readonly string[]).includes(value);
}

/** Confirmed, subscribed addresses per segment (a buyer who owns a printer counts in both). */
export async function segmentCounts(): Promise<Record<NewsletterSegment, number>> {
  const client = await getClient();
  const select = NEWSLETTER_SEGMENTS.map(
    (segment) => `sum(CASE WHEN ${SEGMENT_WHERE[segment]} THEN 1 ELSE 0 END) AS "${segment}"`,
  );
  const result = await client.execute(`SELECT ${select.join(", ")} FROM newsletter_subscribers s WHERE ${ACTIVE}`);
  const row = result.rows[0];
  return Object.fromEntries(NEWSLETTER_SEGMENTS.map((segment) => [segment, Number(row?.[segment] ?? 0)])) as Record<
    NewsletterSegment,
    number
  >;
}

async function recipients(segment: NewsletterSegment) {
  const client = await getClient();
  const result = await client.execute(
    `SELECT s.id, s.email, s.unsubscribe_token FROM newsletter_subscribers s WHERE ${ACTIVE} AND ${SEGMENT_WHERE[segment]} ORDER BY s.id`,
  );
  return result.rows.map((r) => ({ id: Number(r.id), email: String(r.email), unsubscribeToken: String(r.unsubscribe_token) }));
}

// ------------------------------------------------------------------------------------------
// Campaigns
// ------------------------------------------------------------------------------------------

export interface CampaignInput {
  subject?: unknown;
  content?: unknown;
  segment?: unknown;
}

/** Checks and sanitises a campaign, stores it and starts the sending job. */
export async function sendNewsletter(input: CampaignInput, adminId: number) {
  const subject = typeof input.subject === "string" ? input.subject.trim() : "";
  const raw = typeof input.content === "string" ? input.content.trim() : "";
  if (!subject || !raw) throw new AppError("invalid", "Please fill in subject and message");
  if (subject.length > 200)
    throw new AppError("invalid", "The subject is too long (200 characters at most).", { field: "subject" });
  if (raw.length > 100_000) throw new AppError("too_large", "The message is too long.", { field: "content" });
  const segment = input.segment === undefined || input.segment === "" ? "all" : input.segment;
  if (!isSegment(segment)) throw new AppError("invalid", "Please choose a segment.", { field: "segment" });
  const content = sanitizeNewsletterHtml(raw);
  if (!textOf(content)) throw new AppError("invalid", "Please fill in subject and message");
  const recipientCount = (await segmentCounts())[segment];
  const db = await getDb();
  const [campaign] = await db
    .insert(newsletterCampaigns)
    .values({ subject, content, segment, recipientCount, sentById: adminId })
    .returning();
  // the key makes each recipient's Message-ID unique to this campaign and the same on every retry
  const job = await enqueueTask(NEWSLETTER_TASK, { campaignId: campaign.id, messageKey: randomUUID() }, { maxAttempts: 5 });
  return { campaignId: campaign.id, recipientCount, jobId: job.id };
}

export async function recentCampaigns(limit = 5) {
  const db = await getDb();
  const rows = await db
    .select({
      id: newsletterCampaigns.id,
      subject: newsletterCampaigns.subject,
      segment: newsletterCampaigns.segment,
      recipientCount: newsletterCampaigns.recipientCount,
      sentAt: newsletterCampaigns.sentAt,
    })
    .from(newsletterCampaigns)
    .orderBy(desc(newsletterCampaigns.sentAt), desc(newsletterCampaigns.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, sentAt: r.sentAt.toISOString() }));
}

function withUnsubscribe(html: string, text: string, link: string) {
  return {
    html: `${html}<hr><p style="font-size:12px;color:#64748b">You receive this because you subscribed to the Printnear newsletter. <a href="${link}">Unsubscribe</a></p>`,
    text: `${text}\n\n--\nUnsubscribe: ${link}`,
  };
}

/** Whether this subscriber may still receive a campaign (confirmed, not unsubscribed), read right before a send. */
async function stillSubscribed(subscriberId: number): Promise<boolean> {
  const client = await getClient();
  const result = await client.execute({
    sql: `SELECT 1 FROM newsletter_subscribers s WHERE s.id = ? AND ${ACTIVE}`,
    args: [subscriberId],
  });
  return result.rows.length > 0;
}

/**
 * A refusal of this one recipient's e-mail by the mail server: a 5xx answer to its envelope or its
 * message. Anything else may pass on a retry and must not cost the recipient: no connection, a 4xx,
 * or a refusal of the whole session (a wrong SMTP password is 535 to the sign-in, for every recipient).
 */
function refusedForGood(error: unknown): boolean {
  const { responseCode, code, command } = (error ?? {}) as { responseCode?: unknown; code?: unknown; command?: unknown };
  if (typeof responseCode !== "number" || responseCode < 500) return false;
  if (code === "EAUTH" || code === "ECONNECTION" || code === "ETIMEDOUT" || code === "ETLS") return false;
  return code === "EENVELOPE" || code === "EMESSAGE" || /^(RCPT|MAIL|DATA)/i.test(String(command ?? ""));
}

/** The per-recipient outcomes the campaign job recorded, counted: what the report says comes from here. */
function countOutcomes(done: Map<string, string>) {
  const counts = { sent: 0, failed: 0, skipped: 0, unconfirmed: 0 };
  for (const outcome of done.values()) {
    // "sending" left at the end: the recipient left the segment before its unknown send could be retried
    if (outcome === "sending") counts.unconfirmed += 1;
    else if (outcome in counts) counts[outcome as keyof typeof counts] += 1;
  }
  return counts;
}

/**
 * Sends a campaign to its segment, one e-mail at a time, inside the job, so its outcome counts
 * what the mail server accepted. Each recipient is marked "sending" before the send and "sent"
 * only after the server accepted it; a send a dead worker left "sending" (its outcome unknown) is
 * retried under the same Message-ID, so no recipient is lost and a repeat is recognisably the same
 * message (decision 032). The subscriber's state is read again right before each send, so an
 * address unsubscribed meanwhile gets nothing. A recipient the server refuses counts as failed; a
 * server that can't be reached fails the attempt and the job resumes later with the rest. Any
 * failed recipient fails the job. The report counts the recorded outcomes, never a running tally.
 */
registerTaskHandler<{ campaignId: number; messageKey?: string }>(NEWSLETTER_TASK, async (ctx) => {
  const db = await getDb();
  const [campaign] = await db.select().from(newsletterCampaigns).where(eq(newsletterCampaigns.id, ctx.payload.campaignId));
  if (!campaign) throw new PermanentTaskError("The campaign no longer exists.");
  const list = await recipients(campaign.segment);
  const done = await ctx.doneItems();
  const total = Math.max(list.length, done.size);
  const report = () => {
    const counts = countOutcomes(done);
    const processed = counts.sent + counts.failed + counts.skipped;
    return ctx.reportProgress({ processed, total, counts });
  };
  const storeSentCount = (sent: number) =>
    db.update(newsletterCampaigns).set({ recipientCount: sent }).where(eq(newsletterCampaigns.id, campaign.id));
  await report();
  // campaigns queued before stable message keys fall back to the task's id
  const messageKey = ctx.payload.messageKey ?? `task${ctx.taskId}`;
  const text = textOf(campaign.content);
  const base = siteUrl();
  const delivery = mailDelivery();
  for (const r of list) {
    const key = String(r.id);
    const earlier = done.get(key);
    if (earlier !== undefined && earlier !== "sending") continue;
    if (ctx.isCancelled()) break;
    // "sending" from a worker that died: whether the server got it is unknown, so it goes again as the same message
    if (earlier === undefined && !(await ctx.recordItem(key, "sending"))) continue;
    done.set(key, "sending");
    if (!(await stillSubscribed(r.id))) {
      if (!(await ctx.updateItem(key, "skipped"))) break; // the task is no longer ours
      done.set(key, "skipped");
      await report();
      continue;
    }
    const link = `${base}/unsubscribe?token=${encodeURIComponent(r.unsubscribeToken)}`;
    const body = withUnsubscribe(campaign.content, text, link);
    let outcome: "sent" | "failed" = "sent";
    try {
      await delivery.send(
        {
          from: mailFrom(),
          to: r.email,
          subject: campaign.subject,
          ...body,
          headers: { "List-Unsubscribe": `<${link}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
        },
        `newsletter-${campaign.id}-${r.id}-${messageKey}`,
      );
    } catch (error) {
      if (!refusedForGood(error)) {
        await ctx.forgetItem(key); // not accepted: the next attempt sends it
        done.delete(key);
        const { sent } = countOutcomes(done);
        await storeSentCount(sent);
        throw new Error(
          `Failed to send newsletter: the mail server could not be reached (sent to ${sent} of ${total} subscribers so far).`,
        );
      }
      outcome = "failed";
      console.warn(`Newsletter ${campaign.id}: the mail server refused subscriber ${r.id}`);
    }
    if (!(await ctx.updateItem(key, outcome))) break; // the task is no longer ours
    done.set(key, outcome);
    await report();
  }
  const counts = countOutcomes(await ctx.doneItems());
  await storeSentCount(counts.sent);
  if (counts.failed > 0) {
    throw new PermanentTaskError(
      `Failed to send newsletter: the mail server refused ${counts.failed} of ${total} e-mails (sent to ${counts.sent} subscribers).`,
    );
  }
  return { message: `Successfully sent to ${counts.sent} subscribers`, stats: { ...counts, total } };
});

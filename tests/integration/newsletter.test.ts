// Newsletter: sanitising, double opt-in, segment counts, sending through a real SMTP server with
// each recipient's unsubscribe link and List-Unsubscribe headers, one-click unsubscribe.
import { eq, inArray } from "drizzle-orm";
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { backgroundTasks, newsletterCampaigns, newsletterSubscribers, payments, printers, printJobs } from "../../db/schema";
import { jobOutcomeMessage, NEWSLETTER_TASK } from "../../app/domain/background-jobs";
import { getJobSummary } from "../../app/services/admin/jobs.server";
import { mailDelivery } from "../../app/services/mail/transport.server";
import "../../app/services/jobs/handlers.server";
import { runDueTasks } from "../../app/services/jobs/index.server";
import {
  sanitizeNewsletterHtml,
  segmentCounts,
  sendNewsletter,
  subscribe,
  unsubscribe,
} from "../../app/services/newsletter.server";
import { getClient, getDb } from "../../app/utils/db.server";
import * as newsletterPage from "../../app/routes/admin.newsletter";
import * as confirmPage from "../../app/routes/newsletter_.confirm";
import * as footerForm from "../../app/routes/newsletter";
import * as unsubscribePage from "../../app/routes/unsubscribe";
import * as statsApi from "../../app/routes/api.admin.newsletter.stats";
import * as sendApi from "../../app/routes/api.admin.newsletter.send";
import * as campaignsApi from "../../app/routes/api.admin.newsletter.campaigns";
import { workerDies } from "../setup/jobs";
import { args, createTestUser, formRequest, getRequest, jsonRequest, run, sessionCookieFor } from "../setup/requests";
import { testSmtpServer } from "../setup/smtp";

const smtp = testSmtpServer();
const received = smtp.received;

beforeAll(async () => {
  process.env.SMTP_URL = await smtp.start();
  process.env.PUBLIC_URL = "https://printnear.test";
});
afterAll(async () => {
  delete process.env.SMTP_URL;
  await smtp.stop();
});

const linkIn = (mail: ParsedMail, path: string) => {
  const match = new RegExp(`https://printnear\\.test${path}\\?token=([A-Za-z0-9_%-]+)`).exec(mail.text ?? "");
  return match ? decodeURIComponent(match[1]) : null;
};

async function confirmedSubscriber(email: string, interest: "customer" | "printer_owner" | "investor" = "customer") {
  await subscribe({ email, interest });
  const db = await getDb();
  const [row] = await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email));
  await db.update(newsletterSubscribers).set({ confirmedAt: new Date() }).where(eq(newsletterSubscribers.id, row.id));
  return row;
}

describe("sanitising", () => {
  test("scripts, event handlers and javascript: URLs are removed; formatting stays", () => {
    const clean = sanitizeNewsletterHtml(
      '<h1 onclick="steal()">News</h1><script>alert(1)</script><p>Hi <b>there</b> <a href="javascript:alert(1)">x</a> <a href="https://printnear.test/models">models</a></p><img src="x" onerror="alert(1)"><iframe src="https://evil.test"></iframe>',
    );
    expect(clean).not.toMatch(/script|onclick|onerror|javascript:|iframe/i);
    expect(clean).toContain("<b>there</b>");
    expect(clean).toContain('href="https://printnear.test/models"');
  });

  test("only text styles stay: position, display and other layout CSS are removed", () => {
    const clean = sanitizeNewsletterHtml(
      '<div style="position:fixed;top:0;left:0;width:100%;height:100%;z-index:9999;color:#123456">Cover</div>' +
        '<p style="display:none;font-weight:bold;text-align:center;font-size:14px;background-image:url(https://evil.test/x)">Hi</p>' +
        '<span style="color:expression(alert(1));font-size:99999vw">x</span>',
    );
    expect(clean).not.toMatch(/position|fixed|z-index|width|height|display|background-image|expression|vw/);
    expect(clean).toContain('style="color:#123456"');
    expect(clean).toContain("font-weight:bold");
    expect(clean).toContain("text-align:center");
    expect(clean).toContain("font-size:14px");
  });
});

describe("subscribing and segments", () => {
  test("the footer form sends a confirmation; only confirmed addresses count", async () => {
    received.length = 0;
    const response = await run(() =>
      footerForm.action(
        args(formRequest("/newsletter", { email: "Footer@Example.test", interest: "investor", redirectTo: "/pricing" })) as never,
      ),
    );
    expect(response.headers.get("location")).toBe("/pricing");
    expect((await segmentCounts()).investors).toBe(0);
    await runDueTasks();
    const mail = received.find((m) => (m.to as { text: string }).text === "footer@example.test")!;
    expect(mail.subject).toBe("Confirm your Printnear newsletter subscription");
    const token = linkIn(mail, "/newsletter/confirm")!;
    // opening the link (a person or a mail scanner) confirms nothing; its Confirm button does
    const opened = await run(() => confirmPage.loader(args(getRequest(`/newsletter/confirm?token=${token}`)) as never));
    expect(await opened.json()).toEqual({ token });
    expect((await segmentCounts()).investors).toBe(0);
    const confirmed = await run(() =>
      confirmPage.action(args(formRequest(`/newsletter/confirm?token=${encodeURIComponent(token)}`, {})) as never),
    );
    expect(await confirmed.json()).toEqual({ confirmed: true });
    expect((await segmentCounts()).investors).toBe(1);
  });

  const confirmWith = async (token: string) =>
    (await (
      await run(() =>
        confirmPage.action(args(formRequest(`/newsletter/confirm?token=${encodeURIComponent(token)}`, {})) as never),
      )
    ).json()) as { confirmed: boolean };
  const subscriberOf = async (email: string) => {
    const db = await getDb();
    const [row] = await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email));
    return row;
  };
  const confirmationMails = async (email: string) => {
    await runDueTasks();
    return received.filter((m) => (m.to as { text: string }).text === email);
  };

  test("a form sent twice before confirming: the one e-mail's link still confirms", async () => {
    const email = "twice@example.test";
    await subscribe({ email });
    await subscribe({ email });
    const mails = await confirmationMails(email);
    expect(mails).toHaveLength(1); // the second is within the first one's window
    expect(await confirmWith(linkIn(mails[0], "/newsletter/confirm")!)).toEqual({ confirmed: true });
  });

  test("after unsubscribing, the old confirmation link subscribes no one; subscribing again sends a link that does", async () => {
    const email = "leaver@example.test";
    const subscriber = () => subscriberOf(email);
    const confirmationLink = async () => linkIn((await confirmationMails(email)).at(-1)!, "/newsletter/confirm")!;

    await subscribe({ email });
    const oldLink = await confirmationLink();
    expect(await confirmWith(oldLink)).toEqual({ confirmed: true });
    expect(await unsubscribe((await subscriber()).unsubscribeToken)).toBe(true);

    expect(await confirmWith(oldLink)).toEqual({ confirmed: false });
    expect((await subscriber()).unsubscribedAt).not.toBeNull();

    await subscribe({ email }); // signing up again is how an address comes back
    const newLink = await confirmationLink();
    expect(newLink).not.toBe(oldLink);
    expect(await confirmWith(newLink)).toEqual({ confirmed: true });
    expect((await subscriber()).unsubscribedAt).toBeNull();
  });

  test("segments: buyers have a paid order, printer owners a printer, investors said so, unknown the rest", async () => {
    const before = await segmentCounts();
    const db = await getDb();
    const buyer = await createTestUser();
    const [job] = await db.insert(printJobs).values({ customerId: buyer.id, fileName: "a.stl", status: "confirmed" }).returning();
    await db
      .insert(payments)
      .values({ jobId: job.id, provider: "test", providerPaymentId: `pi_${job.id}`, amountCents: 500, status: "captured" });
    const owner = await createTestUser({ userType: "printer_owner" });
    await db.insert(printers).values({
      ownerId: owner.id,
      name: "P1",
      model: "Prusa MK4",
      location: "Denver, CO",
      buildVolumeX: 250,
      buildVolumeY: 210,
      buildVolumeZ: 220,
      fitSmall: 1,
      fitMid: 1,
      fitLarge: 1,
      ratePerKgCents: 2000,
    } as never);
    const nobody = await createTestUser();
    await confirmedSubscriber(buyer.email);
    await confirmedSubscriber(owner.email, "printer_owner");
    await confirmedSubscriber(nobody.email);
    await confirmedSubscriber("investor2@example.test", "investor");
    await subscribe({ email: "unconfirmed@example.test" });
    const after = await segmentCounts();
    expect(after.all - before.all).toBe(4);
    expect(after.buyers - before.buyers).toBe(1);
    expect(after.printer_owners - before.printer_owners).toBe(1);
    expect(after.investors - before.investors).toBe(1);
    expect(after.unknown - before.unknown).toBe(1);

    const admin = await createTestUser({ isAdmin: true });
    const adminCookie = await sessionCookieFor(admin.id);
    const stats = await run(() => statsApi.loader(args(getRequest("/api/admin/newsletter/stats", adminCookie)) as never));
    expect(await stats.json()).toEqual(after);
  });
});

describe("sending", () => {
  test("a campaign goes to each confirmed subscriber with their own unsubscribe link, and unsubscribing works in one click", async () => {
    received.length = 0;
    const admin = await createTestUser({ isAdmin: true });
    const cookie = await sessionCookieFor(admin.id);
    const counts = await segmentCounts();

    const missing = await run(() =>
      newsletterPage.action(
        args(formRequest("/admin/newsletter", { intent: "send", subject: "", content: "", segment: "all" }, { cookie })) as never,
      ),
    );
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({
      error: { title: "Missing Information", message: "Please fill in subject and message" },
    });

    const preview = await run(() =>
      newsletterPage.action(
        args(
          formRequest(
            "/admin/newsletter",
            { intent: "preview", subject: "S", content: "<p onclick=x>Hi</p><script>bad()</script>" },
            { cookie },
          ),
        ) as never,
      ),
    );
    expect(((await preview.json()) as { preview: string }).preview).toBe("<p>Hi</p>");

    const sent = await run(() =>
      sendApi.action(
        args(
          jsonRequest(
            "/api/admin/newsletter/send",
            { subject: "Spring news", content: "<p>Hello <b>makers</b><script>x()</script></p>", segment: "all" },
            { cookie },
          ),
        ) as never,
      ),
    );
    expect(sent.status).toBe(202);
    expect(((await sent.json()) as { recipientCount: number }).recipientCount).toBe(counts.all);
    await runDueTasks(); // the campaign job sends one mail per recipient
    const campaign = received.filter((m) => m.subject === "Spring news");
    expect(campaign).toHaveLength(counts.all);
    const tokens = new Set(campaign.map((m) => linkIn(m, "/unsubscribe")));
    expect(tokens.size).toBe(counts.all); // each recipient their own
    for (const m of campaign) {
      expect(m.html).toContain("<b>makers</b>");
      expect(m.html).not.toContain("script");
      const header = m.headerLines.find((h) => h.key === "list-unsubscribe")!.line;
      expect(header).toContain(`/unsubscribe?token=`);
      expect(m.headerLines.find((h) => h.key === "list-unsubscribe-post")!.line).toContain("List-Unsubscribe=One-Click");
    }

    const list = await run(() => campaignsApi.loader(args(getRequest("/api/admin/newsletter/campaigns", cookie)) as never));
    expect(((await list.json()) as { subject: string; recipientCount: number }[])[0]).toMatchObject({
      subject: "Spring news",
      recipientCount: counts.all,
    });

    // one click on the first recipient's link, no sign-in
    const token = linkIn(campaign[0], "/unsubscribe")!;
    const out = await run(() =>
      unsubscribePage.action(args(formRequest(`/unsubscribe?token=${encodeURIComponent(token)}`, {})) as never),
    );
    expect(await out.json()).toEqual({ done: true });
    expect((await segmentCounts()).all).toBe(counts.all - 1);

    // RFC 8058: the mail program posts List-Unsubscribe=One-Click to the header's URL, no sign-in
    const headerUrl = /<([^>]+)>/.exec(campaign[1].headerLines.find((h) => h.key === "list-unsubscribe")!.line)![1];
    const oneClick = await run(() =>
      unsubscribePage.action(
        args(
          new Request(headerUrl, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: "List-Unsubscribe=One-Click",
          }),
        ) as never,
      ),
    );
    expect(oneClick.status).toBe(200);
    expect((await segmentCounts()).all).toBe(counts.all - 2);
    const db = await getDb();
    const [gone] = await db
      .select()
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.unsubscribeToken, linkIn(campaign[1], "/unsubscribe")!));
    expect(gone.unsubscribedAt).not.toBeNull();

    received.length = 0;
    await run(() =>
      sendApi.action(
        args(
          jsonRequest("/api/admin/newsletter/send", { subject: "Summer news", content: "<p>Hi</p>", segment: "all" }, { cookie }),
        ) as never,
      ),
    );
    await runDueTasks();
    const summer = received.filter((m) => m.subject === "Summer news");
    expect(summer).toHaveLength(counts.all - 2);
    expect(summer.map((m) => linkIn(m, "/unsubscribe"))).not.toContain(token);
  });

  test("a non-admin can't see the page or send", async () => {
    const member = await createTestUser();
    const cookie = await sessionCookieFor(member.id);
    const page = await run(() => newsletterPage.loader(args(getRequest("/admin/newsletter", cookie)) as never));
    expect(page.headers.get("location")).toBe("/");
    const api = await run(() =>
      sendApi.action(args(jsonRequest("/api/admin/newsletter/send", { subject: "x", content: "y" }, { cookie })) as never),
    );
    expect(api.status).toBe(403);
    expect((await run(() => statsApi.loader(args(getRequest("/api/admin/newsletter/stats")) as never))).status).toBe(401);
  });
});

describe("campaign delivery", () => {
  // each test sends to its own fresh subscribers only
  async function onlySubscribers(emails: string[]) {
    const db = await getDb();
    await db.update(newsletterSubscribers).set({ unsubscribedAt: new Date() });
    const rows = [];
    for (const email of emails) rows.push(await confirmedSubscriber(email));
    await db.update(newsletterSubscribers).set({ unsubscribedAt: null }).where(inArray(newsletterSubscribers.email, emails));
    return rows;
  }
  async function startCampaign(subject: string) {
    const admin = await createTestUser({ isAdmin: true });
    return sendNewsletter({ subject, content: "<p>Hello</p>", segment: "all" }, admin.id);
  }
  const to = (mail: ParsedMail) => (mail.to as { text: string }).text;

  test("a mail server that refuses the e-mails ends the campaign with Send Failed, not Newsletter Sent!", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {}); // the job's failure is logged
    const refusing = testSmtpServer({ recipient: () => ({ code: 550, message: "Mailbox unavailable" }) });
    const working = process.env.SMTP_URL;
    process.env.SMTP_URL = await refusing.start();
    try {
      await onlySubscribers(["refused1@example.test", "refused2@example.test"]);
      const { jobId, campaignId } = await startCampaign("Refused news");
      await runDueTasks({ types: [NEWSLETTER_TASK] });
      const job = (await getJobSummary(jobId))!;
      expect(job.status).toBe("failed");
      const outcome = jobOutcomeMessage(job)!;
      expect(outcome.title).toBe("Send Failed");
      expect(outcome.description).toContain("refused 2 of 2");
      const db = await getDb();
      const [campaign] = await db.select().from(newsletterCampaigns).where(eq(newsletterCampaigns.id, campaignId));
      expect(campaign.recipientCount).toBe(0);
    } finally {
      process.env.SMTP_URL = working;
      await refusing.stop();
    }
  });

  test("a mail server that refuses our sign-in (5xx to AUTH) fails the attempt; no recipient is marked failed", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const strict = testSmtpServer({ signIn: { code: 535, message: "Authentication credentials invalid" } });
    const working = process.env.SMTP_URL;
    process.env.SMTP_URL = `smtp://wrong:password@${new URL(await strict.start()).host}`;
    try {
      await onlySubscribers(["auth1@example.test", "auth2@example.test"]);
      const { jobId } = await startCampaign("Auth news");
      expect(await runDueTasks({ types: [NEWSLETTER_TASK] })).toEqual(["queued"]);
      const client = await getClient();
      const { rows } = await client.execute({
        sql: "SELECT outcome FROM background_task_items WHERE task_id = ?",
        args: [jobId],
      });
      expect(rows.map((r) => r.outcome)).not.toContain("failed");
    } finally {
      process.env.SMTP_URL = working;
      await strict.stop();
    }
  });

  test("a mail server that can't be reached fails the attempt; the retry sends to everyone once", async () => {
    await onlySubscribers(["later1@example.test", "later2@example.test"]);
    const working = process.env.SMTP_URL;
    process.env.SMTP_URL = "smtp://127.0.0.1:1"; // nothing listens there
    const { jobId } = await startCampaign("Later news");
    try {
      expect(await runDueTasks({ types: [NEWSLETTER_TASK] })).toEqual(["queued"]);
    } finally {
      process.env.SMTP_URL = working;
    }
    expect((await getJobSummary(jobId))!.lastError).toContain("could not be reached");
    received.length = 0;
    const db = await getDb();
    await db
      .update(backgroundTasks)
      .set({ runAt: new Date(0) })
      .where(eq(backgroundTasks.id, jobId));
    await runDueTasks({ types: [NEWSLETTER_TASK] });
    const job = (await getJobSummary(jobId))!;
    expect(jobOutcomeMessage(job)).toMatchObject({
      title: "Newsletter Sent!",
      description: "Successfully sent to 2 subscribers",
    });
    expect(
      received
        .filter((m) => m.subject === "Later news")
        .map(to)
        .sort(),
    ).toEqual(["later1@example.test", "later2@example.test"]);
  });

  /** The campaign's sends with the worker dying at its first one: `before` or after the server got it. */
  async function dyingAtFirstSend(jobId: number, when: "before the server got it" | "after the server accepted it") {
    const delivery = mailDelivery();
    const realSend = delivery.send;
    let release = () => {};
    let died = false;
    delivery.send = async (mail, key) => {
      delivery.send = realSend;
      const sent = when === "after the server accepted it" ? await realSend(mail, key) : undefined;
      // the worker dies here: it never records the outcome, and its lease runs out
      await workerDies(jobId);
      died = true;
      await new Promise<void>((resolve) => (release = resolve));
      if (!sent) throw new Error("connection lost");
      return sent;
    };
    const dying = runDueTasks({ types: [NEWSLETTER_TASK] });
    await expect.poll(() => died).toBe(true);
    return {
      async resumed() {
        await runDueTasks({ types: [NEWSLETTER_TASK] }); // another worker takes the task over
        release();
        expect(await dying).toEqual(["released"]);
      },
    };
  }
  const byRecipient = (mails: ParsedMail[]) => mails.map((m) => `${to(m)} ${m.messageId}`).sort((a, b) => a.localeCompare(b));

  test("a worker that dies right after a send: the resumed campaign sends it again as the same message and counts it once", async () => {
    await onlySubscribers(["crash1@example.test", "crash2@example.test", "crash3@example.test"]);
    received.length = 0;
    const { jobId, campaignId } = await startCampaign("Crash news");
    const worker = await dyingAtFirstSend(jobId, "after the server accepted it");
    expect(received.filter((m) => m.subject === "Crash news").map(to)).toEqual(["crash1@example.test"]);
    await worker.resumed();
    const crash = received.filter((m) => m.subject === "Crash news");
    // its outcome was unknown, so it went again, under the Message-ID the receiver already has
    expect(crash.map(to).sort()).toEqual([
      "crash1@example.test",
      "crash1@example.test",
      "crash2@example.test",
      "crash3@example.test",
    ]);
    const messageIds = new Set(crash.map((m) => m.messageId));
    expect(messageIds.size).toBe(3);
    expect(new Set(byRecipient(crash)).size).toBe(3); // one Message-ID per recipient
    const job = (await getJobSummary(jobId))!;
    expect(job.status).toBe("done");
    expect(jobOutcomeMessage(job)?.description).toBe("Successfully sent to 3 subscribers");
    const db = await getDb();
    const [campaign] = await db.select().from(newsletterCampaigns).where(eq(newsletterCampaigns.id, campaignId));
    expect(campaign.recipientCount).toBe(3);
  });

  test("a worker that dies during a send the server never got: the resumed campaign still sends to that recipient", async () => {
    await onlySubscribers(["lost1@example.test", "lost2@example.test", "lost3@example.test"]);
    received.length = 0;
    const { jobId } = await startCampaign("Lost news");
    const worker = await dyingAtFirstSend(jobId, "before the server got it");
    expect(received.filter((m) => m.subject === "Lost news")).toEqual([]);
    await worker.resumed();
    const lost = received.filter((m) => m.subject === "Lost news");
    expect(lost.map(to).sort()).toEqual(["lost1@example.test", "lost2@example.test", "lost3@example.test"]);
    // the report counts what the server accepted: each of the three, once
    const job = (await getJobSummary(jobId))!;
    expect(jobOutcomeMessage(job)?.description).toBe("Successfully sent to 3 subscribers");
    expect(job.result?.stats).toMatchObject({ sent: 3, failed: 0, skipped: 0, unconfirmed: 0 });
  });

  test("a campaign's repeated send after a crash keeps each recipient's Message-ID, unique to that campaign", async () => {
    await onlySubscribers(["ids1@example.test", "ids2@example.test"]);
    received.length = 0;
    const first = await startCampaign("Ids news");
    const worker = await dyingAtFirstSend(first.jobId, "after the server accepted it");
    await worker.resumed();
    const second = await startCampaign("Ids news");
    await runDueTasks({ types: [NEWSLETTER_TASK] });
    const ids = received.filter((m) => m.subject === "Ids news").map((m) => m.messageId);
    expect(ids).toHaveLength(5); // 3 of the first campaign (one repeated), 2 of the second
    expect(new Set(ids).size).toBe(4);
    expect(second.campaignId).not.toBe(first.campaignId);
  });

  test("an address unsubscribed while the campaign is sending gets nothing", async () => {
    const [first, second] = await onlySubscribers(["early@example.test", "leaving@example.test"]);
    received.length = 0;
    const { jobId } = await startCampaign("Leaving news");
    const delivery = mailDelivery();
    const realSend = delivery.send;
    delivery.send = async (mail, id) => {
      const sent = await realSend(mail, id);
      if (mail.to === first.email) await unsubscribe(second.unsubscribeToken); // while the job runs
      return sent;
    };
    try {
      await runDueTasks({ types: [NEWSLETTER_TASK] });
    } finally {
      delivery.send = realSend;
    }
    expect(received.filter((m) => m.subject === "Leaving news").map(to)).toEqual(["early@example.test"]);
    const job = (await getJobSummary(jobId))!;
    expect(job.result?.stats).toMatchObject({ sent: 1, skipped: 1 });
  });
});

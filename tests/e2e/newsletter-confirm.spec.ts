// The newsletter's double opt-in through the built server's router: the footer form's confirmation
// e-mail (an .eml in the e2e server's outbox) links to a page whose button confirms, JavaScript on
// and off; once the address unsubscribes, that old link confirms no one.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { simpleParser, type ParsedMail } from "mailparser";
import { newsletterSubscribers } from "../../db/schema";
import { getDb } from "../../app/utils/db.server";
import { expect, test } from "./fixtures";

/** Where the e2e server writes its mail (MAIL_OUTBOX_DIR beside the test database, playwright.config.ts). */
const outbox = () => `${(process.env.DATABASE_URL ?? "file:tests/.tmp/e2e.db").replace(/^file:/, "")}-outbox`;

async function mailTo(address: string): Promise<ParsedMail | undefined> {
  const files = await readdir(outbox()).catch(() => [] as string[]);
  for (const file of files.filter((name) => name.endsWith(".eml"))) {
    const raw = await readFile(join(outbox(), file));
    if (raw.includes(address)) return simpleParser(raw);
  }
  return undefined;
}

async function subscriber(email: string) {
  const db = await getDb();
  const [row] = await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email));
  return row;
}

test("the confirmation e-mail's link confirms the subscription; after unsubscribing it confirms no one", async ({
  page,
}, testInfo) => {
  const email = `reader-${testInfo.project.name}-${Date.now()}@e2e.test`;
  await page.goto("/how-it-works");
  const form = page.getByRole("form", { name: "Newsletter" });
  await form.getByLabel("E-mail for the newsletter").fill(email);
  await form.getByRole("button", { name: "Subscribe" }).click();

  let mail: ParsedMail | undefined;
  await expect.poll(async () => (mail = await mailTo(email)) !== undefined, { timeout: 20_000 }).toBe(true);
  expect(mail!.subject).toBe("Confirm your Printnear newsletter subscription");
  const link = /https?:\/\/\S+\/newsletter\/confirm\?token=[\w%-]+/.exec(mail!.text ?? "")![0];

  // the e-mailed link is the page itself, not a redirect to the home page
  const opened = await page.request.get(link, { maxRedirects: 0 });
  expect(opened.status()).toBe(200);

  // the reader clicks the link in the e-mail, then the page's button
  await page.setContent(mail!.html || "");
  await page.getByRole("link", { name: "Confirm my subscription" }).click();
  await expect(page.getByRole("heading", { name: "Confirm your subscription" })).toBeVisible();
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByRole("heading", { name: "Subscription confirmed" })).toBeVisible();
  const confirmed = await subscriber(email);
  expect(confirmed.confirmedAt).not.toBeNull();

  await page.goto(`/unsubscribe?token=${encodeURIComponent(confirmed.unsubscribeToken)}`);
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(page.getByRole("heading", { name: "You are unsubscribed" })).toBeVisible();

  // the old e-mail's link, opened again, does not bring the address back
  await page.goto(link);
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByRole("heading", { name: "Link not valid" })).toBeVisible();
  expect((await subscriber(email)).unsubscribedAt).not.toBeNull();
});

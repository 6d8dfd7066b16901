// A newsletter sent from /admin/newsletter reaches a real SMTP server started here, each e-mail
// with its recipient's working unsubscribe link (JavaScript on and off). The spec runs its own
// server so its mail goes to this SMTP server.
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { createClient } from "@libsql/client";
import { createCookie } from "@remix-run/node";
import { testSmtpServer } from "../setup/smtp";
import { waitFor } from "../setup/wait";
import { expect, test } from "./fixtures";
import { startOwnServer } from "./helpers";

/** A started server and its worker take their time on a loaded machine. */
const until = <T>(read: () => Promise<T>, ok: (v: T) => boolean) => waitFor(read, ok, 40_000);

test("a newsletter reaches the SMTP server with a working one-click unsubscribe link", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const smtp = testSmtpServer();
  const received = smtp.received;
  const smtpUrl = await smtp.start();

  const port = Number(process.env.E2E_PORT || 3005) + 200 + (testInfo.project.name === "js" ? 0 : 10);
  const db = `tests/.tmp/e2e-newsletter-${testInfo.project.name}.db`;
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${db}${suffix}`, { force: true });
  const server = startOwnServer(port, db, {
    SESSION_SECRET: "e2e-session-secret",
    SMTP_URL: smtpUrl,
    PUBLIC_URL: `http://localhost:${port}`,
    WORKER_POLL_MS: "200",
  });
  // the server writes at start-up and from its worker: this connection waits for its lock like the app does
  const client = createClient({ url: `file:${db}`, timeout: 5000 });
  try {
    await until(
      () => fetch(`http://localhost:${port}/healthz`).then((r) => r.status),
      (s) => s === 200,
    );
    const admin = await client.execute(
      `INSERT INTO users (email, username, password_hash, first_name, is_admin) VALUES ('boss@example.test', 'boss', 'x', 'Boss', 1) RETURNING id`,
    );
    const sessionId = randomBytes(32).toString("base64url");
    await client.execute({
      sql: "INSERT INTO sessions (id, user_id, expires_at) VALUES (?, ?, ?)",
      args: [sessionId, Number(admin.rows[0].id), Date.now() + 86_400_000],
    });
    for (const [email, token] of [
      ["reader1@example.test", "tok-one"],
      ["reader2@example.test", "tok-two"],
    ]) {
      await client.execute({
        sql: "INSERT INTO newsletter_subscribers (email, interest, unsubscribe_token, confirmed_at) VALUES (?, 'buyer', ?, ?)",
        args: [email, token, Date.now()],
      });
    }
    await client.execute({
      sql: "INSERT INTO newsletter_subscribers (email, interest, unsubscribe_token) VALUES ('unconfirmed@example.test', 'buyer', 'tok-three')",
      args: [],
    });
    const cookie = await createCookie("pn_session", { path: "/", secrets: ["e2e-session-secret"] }).serialize(sessionId);
    const [name, ...rest] = cookie.split(";")[0].split("=");
    await page.context().addCookies([{ name, value: rest.join("="), url: `http://localhost:${port}` }]);

    await page.goto(`http://localhost:${port}/admin/newsletter`);
    await expect(page.getByRole("heading", { name: "Newsletter Campaign" })).toBeVisible();
    await expect(page.getByTestId("count-all")).toHaveText("2");
    await expect(page.getByText("No campaigns sent yet")).toBeVisible();
    await page.getByLabel("Subject").fill("Printnear spring news");
    await page.getByLabel("Message (HTML allowed)").fill("<p>New <b>printers</b> near you<script>alert(1)</script></p>");
    await page.getByRole("button", { name: "Send Newsletter" }).click();
    await expect(page).toHaveURL(/\/admin\/newsletter\?job=\d+/);
    const toast = page.getByTestId("toast");
    await expect(toast).toContainText("Newsletter Sent!", { timeout: 30_000 });
    await expect(toast).toContainText("Successfully sent to 2 subscribers");
    await expect(page.getByLabel("Subject")).toHaveValue(""); // the form starts afresh
    await expect(page.getByText("Printnear spring news")).toBeVisible(); // Recent Campaigns

    await until(
      async () => received.length,
      (n) => n >= 2,
    );
    expect(received.map((m) => (m.to as { text: string }).text).sort()).toEqual(["reader1@example.test", "reader2@example.test"]);
    const mail = received.find((m) => (m.to as { text: string }).text === "reader1@example.test")!;
    expect(mail.html).toContain("<b>printers</b>");
    expect(mail.html).not.toContain("script");
    expect(mail.headerLines.find((h) => h.key === "list-unsubscribe-post")?.line).toContain("List-Unsubscribe=One-Click");
    const link = /(http:\/\/localhost:\d+\/unsubscribe\?token=[^\s>"]+)/.exec(mail.text ?? "")![1];
    expect(link).toContain("token=tok-one");

    await page.context().clearCookies(); // no sign-in needed
    await page.goto(link);
    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(page.getByRole("heading", { name: "You are unsubscribed" })).toBeVisible();
    const row = await client.execute("SELECT unsubscribed_at FROM newsletter_subscribers WHERE email = 'reader1@example.test'");
    expect(row.rows[0].unsubscribed_at).not.toBeNull();
  } finally {
    client.close();
    try {
      process.kill(-server.pid!, "SIGTERM");
    } catch {
      // already gone
    }
    await smtp.stop();
  }
});

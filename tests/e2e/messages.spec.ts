import type { ChildProcess } from "node:child_process";
import { expect, jsDisabled, sessionCookie, test } from "./fixtures";
import { createJob, createPerson, createPrinterFor, freePort, startOwnServer } from "./helpers";

test.describe("messages", () => {
  test("a customer and a printer owner exchange messages; the unread badge moves", async ({ browser, page, signIn }) => {
    const customer = await createPerson("Carla");
    const owner = await createPerson("Otto", "printer_owner");
    const printer = await createPrinterFor(owner.id, "Otto's Prusa");
    const job = await createJob(customer.id, printer.id, "accepted", `chat-${Date.now()}.stl`);

    // the owner waits on the dashboard in another browser
    const ownerContext = await browser.newContext();
    const ownerPage = await ownerContext.newPage();
    await signIn(owner, ownerPage);
    await ownerPage.goto("/dashboard");
    await expect(ownerPage.getByRole("banner").getByLabel(/unread messages/)).toHaveCount(0);

    await signIn(customer);
    await page.goto(`/messages?jobId=${job.id}`);
    await expect(page.getByTestId("thread-title")).toHaveText(job.fileName);
    await expect(page.getByText("Printer owner: Otto Tester")).toBeVisible();
    const box = page.getByTestId("message-input");
    if (jsDisabled()) {
      await box.fill("Could you use the blue PLA?");
      await page.getByRole("button", { name: "Send" }).click();
    } else {
      // Shift+Enter adds a line, Enter sends
      await box.fill("Could you use");
      await box.press("Shift+Enter");
      await box.pressSequentially("the blue PLA?");
      await box.press("Enter");
    }
    await expect(page.getByText("Message Sent")).toBeVisible();
    const mine = page.getByTestId("thread-message").filter({ hasText: "the blue PLA?" });
    await expect(mine).toHaveAttribute("data-mine", "true");
    await expect(box).toHaveValue("");

    // with JavaScript the owner's header counts the message without a reload; without it, on the next load
    if (jsDisabled()) await ownerPage.reload();
    await expect(ownerPage.getByRole("banner").getByLabel("1 unread messages").first()).toBeVisible();
    await ownerPage
      .getByRole("link", { name: /^Messages/ })
      .first()
      .click();
    const item = ownerPage.getByTestId("conversation-item").filter({ hasText: job.fileName });
    await expect(item.getByTestId("conversation-unread")).toHaveText(/1/);
    await item.click();
    await expect(ownerPage.getByTestId("thread-message").filter({ hasText: "the blue PLA?" })).toHaveAttribute(
      "data-mine",
      "false",
    );
    // opening the thread read it
    await expect(ownerPage.getByRole("banner").getByLabel(/unread messages/)).toHaveCount(0);

    await ownerPage.getByTestId("message-input").fill("Blue it is.");
    await ownerPage.getByRole("button", { name: "Send" }).click();
    await expect(ownerPage.getByText("Message Sent")).toBeVisible();

    if (jsDisabled()) await page.reload();
    // live with JavaScript: the answer appears in the customer's open thread
    await expect(page.getByTestId("thread-message").filter({ hasText: "Blue it is." })).toHaveAttribute("data-mine", "false");
    await ownerContext.close();
  });

  test("a message arriving while a saved form's page loads keeps that page's toast", async ({
    browser,
    page,
    baseURL,
    signIn,
  }) => {
    test.skip(jsDisabled(), "live reloads run only with JavaScript; without it each page load is complete");
    const customer = await createPerson("Cleo");
    const owner = await createPerson("Oren", "printer_owner");
    const printer = await createPrinterFor(owner.id, "Oren's Ender");
    const job = await createJob(customer.id, printer.id, "accepted", `toast-race-${Date.now()}.stl`);
    const customerCookie = await sessionCookie(customer);

    // a second browser of the owner's, idle on its dashboard, shows when the event has reached their streams
    // (its own cookies: its reloads must not take the first browser's toast)
    const watcherContext = await browser.newContext();
    const watcher = await watcherContext.newPage();
    await signIn(owner, watcher);
    await watcher.goto("/dashboard");

    await signIn(owner);
    const streamOpen = page.waitForResponse((response) => new URL(response.url()).pathname === "/events");
    await page.goto("/profile");
    await streamOpen;

    // the page load after the save has been answered by the server (the one-time toast handed over), and
    // the customer's message reaches the owner's live stream before the browser has that answer
    let held = false;
    await page.route("**/profile.data*", async (route) => {
      // the save itself posts to the same address; the page load after it is the first GET
      if (held || route.request().method() !== "GET") return route.continue();
      held = true;
      const response = await route.fetch();
      const sent = await fetch(`${baseURL}/api/print-jobs/message`, {
        method: "POST",
        headers: { cookie: customerCookie, "content-type": "application/json", origin: baseURL! },
        body: JSON.stringify({ jobId: job.id, message: "Is it printing yet?" }),
      });
      expect(sent.status).toBe(201);
      await expect(watcher.getByRole("banner").getByLabel("1 unread messages").first()).toBeVisible();
      // the same event reached this page's stream; past its 150 ms gathering of bursts
      await page.waitForTimeout(500);
      await route.fulfill({ response }).catch(() => undefined);
    });
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByTestId("toast")).toContainText("Profile Updated");
    // and the message still reaches the header once the page is idle
    await expect(page.getByRole("banner").getByLabel("1 unread messages").first()).toBeVisible();
    await watcherContext.close();
  });

  test("the order page carries the same conversation: the customer writes there, the owner answers there", async ({
    browser,
    page,
    signIn,
  }) => {
    const customer = await createPerson("Cora");
    const owner = await createPerson("Olaf", "printer_owner");
    const printer = await createPrinterFor(owner.id);
    const job = await createJob(customer.id, printer.id, "printing", `order-chat-${Date.now()}.stl`);

    await signIn(customer);
    await page.goto(`/order/${job.id}`);
    await page.getByTestId("message-input").fill("Is it on schedule?");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.getByText("Message Sent")).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/order/${job.id}(#messages)?$`));
    await expect(page.getByTestId("thread-message").filter({ hasText: "Is it on schedule?" })).toHaveAttribute(
      "data-mine",
      "true",
    );

    const ownerContext = await browser.newContext();
    const ownerPage = await ownerContext.newPage();
    await signIn(owner, ownerPage);
    await ownerPage.goto(`/order/${job.id}`);
    await expect(ownerPage.getByTestId("thread-message").filter({ hasText: "Is it on schedule?" })).toHaveAttribute(
      "data-mine",
      "false",
    );
    await ownerPage.getByTestId("message-input").fill("Yes, done by tonight.");
    await ownerPage.getByRole("button", { name: "Send" }).click();
    await expect(ownerPage.getByText("Message Sent")).toBeVisible();

    // the same thread on /messages, for both
    await page.goto(`/messages?jobId=${job.id}`);
    await expect(page.getByTestId("thread-message").filter({ hasText: "Yes, done by tonight." })).toHaveAttribute(
      "data-mine",
      "false",
    );
    await ownerContext.close();
  });

  test("blank messages are refused and strangers cannot open a conversation", async ({ page, signIn }) => {
    const customer = await createPerson("Bea");
    const owner = await createPerson("Omar", "printer_owner");
    const stranger = await createPerson("Stan");
    const printer = await createPrinterFor(owner.id);
    const job = await createJob(customer.id, printer.id, "confirmed", `blank-${Date.now()}.stl`);
    await signIn(customer);
    await page.goto(`/messages?jobId=${job.id}`);
    await page.getByTestId("message-input").fill("    ");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.getByTestId("conversation-thread").locator("form").getByText("Failed to Send Message")).toBeVisible();
    // raised as a destructive toast too
    await expect(page.getByTestId("toast")).toContainText("Failed to Send Message");
    await expect(page.getByTestId("message-input")).toHaveValue("    ");
    await expect(page.getByTestId("thread-message")).toHaveCount(0);

    await page.context().clearCookies();
    await signIn(stranger);
    const response = await page.goto(`/messages?jobId=${job.id}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Conversation Not Found" })).toBeVisible();
  });
});

/** The test database's file (the config sets DATABASE_URL to it for the tests and server A). */
function testDatabaseFile(): string {
  return (process.env.DATABASE_URL ?? "file:tests/.tmp/e2e.db").replace(/^file:/, "");
}

test.describe("two servers, one database", () => {
  let second: ChildProcess | undefined;
  test.afterEach(() => {
    if (second?.pid) process.kill(-second.pid, "SIGTERM");
  });

  test("a message written through server A reaches a stream held open on server B @no-browser", async ({ baseURL }) => {
    const port = await freePort();
    // server A's worker runs the shared database's queued tasks; B only serves, and any mail it wrote would go
    // beside the test database (startOwnServer), never into data/outbox
    second = startOwnServer(port, testDatabaseFile(), { MOCKS: "false", LIVE_POLL_MS: "200", WORKER: "off" });
    const serverB = `http://localhost:${port}`;
    await expect
      .poll(async () => (await fetch(`${serverB}/healthz`).catch(() => null))?.status ?? 0, { timeout: 60_000 })
      .toBe(200);

    const customer = await createPerson("Ada");
    const owner = await createPerson("Bo", "printer_owner");
    const printer = await createPrinterFor(owner.id);
    const job = await createJob(customer.id, printer.id, "printing", `two-servers-${Date.now()}.stl`);

    const controller = new AbortController();
    const stream = await fetch(`${serverB}/events`, {
      headers: { cookie: await sessionCookie(owner), accept: "text/event-stream" },
      signal: controller.signal,
    });
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = stream.body!.getReader();
    let seen = "";
    const heard = (async () => {
      const decoder = new TextDecoder();
      while (!seen.includes("event: ready")) seen += decoder.decode((await reader.read()).value);
      const sent = await fetch(`${baseURL}/api/print-jobs/message`, {
        method: "POST",
        headers: { cookie: await sessionCookie(customer), "content-type": "application/json" },
        body: JSON.stringify({ jobId: job.id, message: "Written through A" }),
      });
      expect(sent.status).toBe(201);
      while (!seen.includes(`"jobId":${job.id}`)) seen += decoder.decode((await reader.read()).value);
      return seen;
    })();
    const text = await Promise.race([heard, new Promise<string>((r) => setTimeout(() => r("timeout"), 15_000))]);
    controller.abort();
    expect(text).toContain(`"kind":"message"`);
    expect(text).toContain(`"jobId":${job.id}`);
  });
});

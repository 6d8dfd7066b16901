// The mail service: queued mail reaches a real SMTP server started here, a failing server is
// retried, batches send one message per window, a worker killed around a send neither loses nor
// repeats the e-mail (a repeat keeps its Message-ID), logs name no address, and without SMTP_URL
// mail lands in the outbox.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { simpleParser, type ParsedMail } from "mailparser";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import "../../app/services/mail/mail-task.server";
import { queueMail } from "../../app/services/mail/index.server";
import { getTask, listTasks, runDueTasks, startWorker } from "../../app/services/jobs/index.server";
import { claimTask } from "../../app/services/jobs/runner.server";
import { mailDelivery } from "../../app/services/mail/transport.server";
import { listNotifications, notify } from "../../app/services/notifications.server";
import { getClient } from "../../app/utils/db.server";
import { workerDies } from "../setup/jobs";
import { atTime } from "../setup/clock";
import { createTestUser } from "../setup/requests";
import { testSmtpServer } from "../setup/smtp";
import { waitFor } from "../setup/wait";

let refuseNext = 0;
/** recipients the server refuses, quoting the address as real servers do */
const unknownMailboxes = new Set<string>();
const smtp = testSmtpServer({
  recipient: (address) =>
    unknownMailboxes.has(address)
      ? { code: 550, message: `<${address}>: Recipient address rejected: User unknown in virtual mailbox table` }
      : undefined,
  message() {
    if (refuseNext === 0) return undefined;
    refuseNext -= 1;
    return { code: 451, message: "Try again later" };
  },
});
const received = smtp.received;

beforeAll(async () => {
  process.env.SMTP_URL = await smtp.start();
});

afterAll(async () => {
  delete process.env.SMTP_URL;
  await smtp.stop();
});

afterEach(() => {
  received.length = 0;
  refuseNext = 0;
  unknownMailboxes.clear();
});

const messageIdOf = (mail: ParsedMail) => mail.messageId;

/** Everything written to the console while `work` runs, as one text. */
async function logOf(work: () => Promise<unknown>): Promise<string> {
  const lines: string[] = [];
  const spies = (["log", "info", "warn", "error"] as const).map((method) =>
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" "))),
  );
  try {
    await work();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return lines.join("\n");
}

describe("queueMail through a real SMTP server", () => {
  test("a queued message arrives with its subject, text, HTML and headers; the log names neither address nor body", async () => {
    const log = vi.spyOn(console, "log");
    const { id, skipped } = await queueMail({
      to: "maker@example.test",
      subject: "Your print is ready",
      text: "Secret body text",
      html: "<p>Secret <b>body</b> text</p>",
      headers: { "List-Unsubscribe": "<https://printnear.test/unsubscribe?token=abc>" },
    });
    expect(skipped).toBe(false);
    expect(received).toHaveLength(0); // queued, not sent during the request
    expect(await runDueTasks({ types: ["mail.send"] })).toEqual(["done"]);
    expect(received).toHaveLength(1);
    const mail = received[0];
    expect(mail.subject).toBe("Your print is ready");
    expect((mail.to as { text: string }).text).toBe("maker@example.test");
    expect(mail.text?.trim()).toBe("Secret body text");
    expect(mail.html).toContain("<b>body</b>");
    expect(mail.headerLines.find((h) => h.key === "list-unsubscribe")?.line).toContain("unsubscribe?token=abc");
    expect((await getTask(id!))!.status).toBe("done");
    const lines = log.mock.calls.map((c) => c.join(" ")).join("\n");
    expect(lines).toContain(`message ${mail.messageId!.slice(1, mail.messageId!.indexOf("@"))} (SMTP)`);
    expect(lines).not.toContain("maker@example.test");
    expect(lines).not.toContain("Secret");
    log.mockRestore();
  });

  test("a server that refuses is retried with backoff until the message goes through", async () => {
    refuseNext = 2;
    const { id } = await queueMail({ to: "retry@example.test", subject: "Retry me", text: "hello" });
    expect(await runDueTasks({ types: ["mail.send"], backoffBaseMs: 100 })).toEqual(["queued"]);
    let task = await getTask(id!);
    expect(task!.status).toBe("queued");
    expect(task!.lastError).toMatch(/451|Try again later/);
    expect(received).toHaveLength(0);
    // the clock moves to each retry's time
    await atTime(task!.runAt, async () => {
      expect(await runDueTasks({ types: ["mail.send"], backoffBaseMs: 100 })).toEqual(["queued"]);
    });
    await atTime((await getTask(id!))!.runAt, async () => {
      expect(await runDueTasks({ types: ["mail.send"], backoffBaseMs: 100 })).toEqual(["done"]);
    });
    task = await getTask(id!);
    expect(task!.attempts).toBe(3);
    expect(received.map((m) => m.subject)).toEqual(["Retry me"]);
  });

  test("a batch key sends at most one message per window", async () => {
    const now = Date.now();
    const first = await queueMail({ to: "a@example.test", subject: "New message", text: "1", batchKey: "conv:7" }, now);
    const second = await queueMail({ to: "a@example.test", subject: "New message", text: "2", batchKey: "conv:7" }, now + 60_000);
    const other = await queueMail({ to: "a@example.test", subject: "Other", text: "3", batchKey: "conv:8" }, now);
    const later = await queueMail(
      { to: "a@example.test", subject: "New message", text: "4", batchKey: "conv:7" },
      now + 15 * 60_000 + 1,
    );
    expect([first.skipped, second.skipped, other.skipped, later.skipped]).toEqual([false, true, false, false]);
    expect(second.id).toBeNull();
    await runDueTasks({ types: ["mail.send"] });
    expect(received.map((m) => m.text?.trim()).sort()).toEqual(["1", "3", "4"]);
  });

  test("no log line of a send, a refused send or a notification's e-mail carries an e-mail address", async () => {
    const user = await createTestUser();
    unknownMailboxes.add("gone@example.test");
    const log = await logOf(async () => {
      await notify(user.id, "Order shipped", "Your order is on its way.", "/orders/1", { kind: "order_update" });
      await queueMail({ to: "gone@example.test", subject: "Refused", text: "x", maxAttempts: 1 });
      await queueMail({ to: "reader@example.test", subject: "Accepted", text: "y" });
      expect((await runDueTasks({ types: ["mail.send"] })).sort()).toEqual(["done", "done", "failed"]);
    });
    expect(received.map((m) => (m.to as { text: string }).text).sort()).toEqual(["reader@example.test", user.email].sort());
    expect(log).toContain("Mail sent"); // the sends were logged ...
    expect(log).toContain("Recipient address rejected"); // ... and so was the refusal
    expect(log).not.toMatch(/[^\s@<>"']+@[^\s@<>"']+\.[a-z]{2,}/i); // ... none with an address
  });

  test("a bad address is refused when queueing", async () => {
    await expect(queueMail({ to: "not-an-address", subject: "x", text: "y" })).rejects.toThrow();
  });
});

describe("restarts and failures", () => {
  test("a mail held by a worker that died is sent by the next worker, exactly once", async () => {
    const { id } = await queueMail({ to: "restart@example.test", subject: "Survives a restart", text: "once" });
    // a worker claims it and dies before sending: its lease runs out with nobody to renew it
    const claimed = await claimTask("dead-worker", ["mail.send"], 150);
    expect(claimed?.id).toBe(id);
    const worker = startWorker({ workerId: "next-worker", leaseMs: 150, pollMs: 20, types: ["mail.send"] });
    try {
      // once the task is done no worker takes it again; stopping waits for any send still under way
      await waitFor(
        () => getTask(id!),
        (task) => task!.status === "done",
      );
    } finally {
      await worker.stop();
    }
    expect(received.map((m) => m.subject)).toEqual(["Survives a restart"]);
    const task = await getTask(id!);
    expect([task!.status, task!.attempts]).toEqual(["done", 2]);
  });

  test("a notification e-mail whose worker is killed (kill -9) right after logging its send is not sent again", async () => {
    const user = await createTestUser();
    await notify(user.id, "Order shipped", "Your order is on its way.", "/orders/1", { kind: "order_update" });
    const [queued] = await listTasks({ types: ["mail.send"], statuses: ["queued"], limit: 1 });
    const child = spawn(process.execPath, ["--import", "tsx", "tests/fixtures/jobs/dying-mail-worker.ts"], {
      env: process.env,
      stdio: "ignore",
    });
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, sig) => resolve(sig)));
    expect(signal).toBe("SIGKILL");
    expect(received.map((m) => m.subject)).toEqual(["Order shipped | Printnear"]);
    expect((await getTask(queued.id))!.status).toBe("running"); // killed holding its lease

    await workerDies(queued.id); // its lease runs out
    expect(await runDueTasks({ types: ["mail.send"] })).toEqual(["done"]);
    expect(received.map((m) => m.subject)).toEqual(["Order shipped | Printnear"]);
  }, 30_000);

  test("a worker that dies during a send whose outcome it never learns: the next sends it again as the same message", async () => {
    const { id } = await queueMail({ to: "unknown-outcome@example.test", subject: "Once, by Message-ID", text: "x" });
    const delivery = mailDelivery();
    const realSend = delivery.send;
    let release = () => {};
    delivery.send = async (mail, key) => {
      delivery.send = realSend;
      const sent = await realSend(mail, key);
      await workerDies(id!); // the server accepted it, but the worker dies before it can record that
      await new Promise<void>((resolve) => (release = resolve));
      return sent;
    };
    const dying = runDueTasks({ types: ["mail.send"] });
    await expect.poll(() => received.length).toBe(1);
    expect(await runDueTasks({ types: ["mail.send"] })).toEqual(["done"]);
    release();
    expect(await dying).toEqual(["released"]);
    // delivered at least once; a receiver that keeps one message per Message-ID shows it once
    expect(received).toHaveLength(2);
    expect(new Set(received.map(messageIdOf)).size).toBe(1);
    expect(messageIdOf(received[0])).toMatch(/^<mail-[0-9a-f-]{36}@printnear\.test>$/);
    expect((await getTask(id!))!.result).toEqual({ messageId: messageIdOf(received[0]) });
  });

  test("a mail that can't be queued leaves no notification and no used-up batch window", async () => {
    const user = await createTestUser();
    const client = await getClient();
    const link = "/messages?jobId=991";
    await client.execute(
      `CREATE TRIGGER refuse_mail BEFORE INSERT ON background_tasks WHEN NEW.kind = 'mail.send'
       BEGIN SELECT RAISE(ABORT, 'queue unavailable'); END`,
    );
    try {
      await expect(notify(user!.id, "New Message", "You have a new message.", link)).rejects.toThrow(/queue unavailable/);
    } finally {
      await client.execute("DROP TRIGGER refuse_mail");
    }
    expect(await listNotifications(user!.id)).toEqual([]);
    const windows = await client.execute({
      sql: "SELECT count(*) AS n FROM mail_batches WHERE batch_key LIKE ?",
      args: [`%${link}`],
    });
    expect(Number(windows.rows[0]!.n)).toBe(0);
    // once the queue is back, the same conversation's mail goes out: its window was never taken
    await notify(user!.id, "New Message", "You have a new message.", link);
    await runDueTasks({ types: ["mail.send"] });
    expect(received.map((m) => (m.to as { text: string }).text)).toEqual([user!.email]);
  });
});

describe("without SMTP_URL", () => {
  test("each message is written as an .eml file to the outbox", async () => {
    const saved = process.env.SMTP_URL;
    const dir = `${process.env.UPLOADS_DIR}-outbox`;
    delete process.env.SMTP_URL;
    process.env.MAIL_OUTBOX_DIR = dir;
    const log = vi.spyOn(console, "log");
    try {
      await queueMail({ to: "demo@example.test", subject: "Outbox check", text: "in a file" });
      expect(await runDueTasks({ types: ["mail.send"] })).toEqual(["done"]);
      const files = readdirSync(dir).filter((f) => f.endsWith(".eml"));
      expect(files).toHaveLength(1);
      // the log names the file, so a developer can open it
      expect(log.mock.calls.map((c) => c.join(" ")).join("\n")).toContain(`${dir}/${files[0]}`);
      const parsed = await simpleParser(readFileSync(`${dir}/${files[0]}`));
      expect(parsed.subject).toBe("Outbox check");
      expect(parsed.text?.trim()).toBe("in a file");
    } finally {
      log.mockRestore();
      process.env.SMTP_URL = saved;
      delete process.env.MAIL_OUTBOX_DIR;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a message written again after its worker died replaces its own file: the outbox holds it once", async () => {
    const saved = process.env.SMTP_URL;
    const dir = `${process.env.UPLOADS_DIR}-outbox-again`;
    delete process.env.SMTP_URL;
    process.env.MAIL_OUTBOX_DIR = dir;
    const delivery = mailDelivery();
    const realSend = delivery.send;
    try {
      const { id } = await queueMail({ to: "demo@example.test", subject: "Outbox twice", text: "in one file" });
      delivery.send = async (mail, key) => {
        delivery.send = realSend;
        const sent = await realSend(mail, key);
        await workerDies(id!); // written, but never recorded as sent
        return sent;
      };
      await logOf(async () => expect(await runDueTasks({ types: ["mail.send"], limit: 1 })).toEqual(["released"]));
      await logOf(async () => expect(await runDueTasks({ types: ["mail.send"] })).toEqual(["done"]));
      expect(readdirSync(dir)).toHaveLength(1);
      expect((await simpleParser(readFileSync(`${dir}/${readdirSync(dir)[0]}`))).subject).toBe("Outbox twice");
    } finally {
      delivery.send = realSend;
      process.env.SMTP_URL = saved;
      delete process.env.MAIL_OUTBOX_DIR;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

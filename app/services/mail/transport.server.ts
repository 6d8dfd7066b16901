// Where mail goes: the SMTP server of SMTP_URL, or (no SMTP_URL, as in the demo) .eml files in
// an outbox folder, MAIL_OUTBOX_DIR (default data/outbox), that any mail program opens. Every
// message carries the Message-ID of its durable key, so a send repeated after a crash is the same
// message to the receiving side (decision 032).
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
}

export interface MailDelivery {
  /**
   * Sends one message under the Message-ID of `key` (the message's durable identity: the same key,
   * the same message); throws when the server refuses or can't be reached (the task retries).
   */
  send(mail: OutgoingMail, key: string): Promise<{ messageId: string; where: string }>;
}

export function mailFrom(env: NodeJS.ProcessEnv = process.env): string {
  return env.MAIL_FROM || "Printnear <no-reply@printnear.test>";
}

/** The Message-ID of a message's durable key, in the sender's domain: stable over every retry. */
export function messageIdFor(key: string, env: NodeJS.ProcessEnv = process.env): string {
  const domain = /@([^\s>]+)/.exec(mailFrom(env))?.[1] ?? "printnear.test";
  return `<${key.replace(/[^A-Za-z0-9._-]/g, "-")}@${domain}>`;
}

function smtpDelivery(url: string): MailDelivery {
  const transporter: Transporter = nodemailer.createTransport({
    url,
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
  } as SMTPTransport.Options);
  return {
    async send(mail, key) {
      const info = await transporter.sendMail({ ...mail, messageId: messageIdFor(key) });
      return { messageId: String(info.messageId), where: "smtp" };
    },
  };
}

function outboxDelivery(dir: string): MailDelivery {
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" });
  return {
    async send(mail, key) {
      const messageId = messageIdFor(key);
      const info = await builder.sendMail({ ...mail, messageId });
      await mkdir(dir, { recursive: true });
      // named by the message, written whole or not at all: a message sent again replaces its own file
      const file = join(dir, `${messageId.slice(1, messageId.indexOf("@"))}.eml`);
      await writeFile(`${file}.partial`, info.message as Buffer);
      await rename(`${file}.partial`, file);
      return { messageId, where: file };
    },
  };
}

let cached: { key: string; delivery: MailDelivery } | undefined;

/** The delivery for the current settings (read on each call, so tests can switch them). */
export function mailDelivery(env: NodeJS.ProcessEnv = process.env): MailDelivery {
  const key = env.SMTP_URL ? `smtp:${env.SMTP_URL}` : `outbox:${outboxDir(env)}`;
  if (cached?.key !== key) {
    cached = { key, delivery: env.SMTP_URL ? smtpDelivery(env.SMTP_URL) : outboxDelivery(outboxDir(env)) };
  }
  return cached.delivery;
}

export function outboxDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.MAIL_OUTBOX_DIR || "data/outbox");
}

// Where mail goes: the SMTP server of SMTP_URL, or (no SMTP_URL, as in the demo) .eml files in
// an outbox folder, MAIL_OUTBOX_DIR (default data/outbox), that any mail program opens.
import { mkdir, writeFile } from "node:fs/promises";
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
  /** sends one message; throws when the server refuses or can't be reached (the task retries) */
  send(mail: OutgoingMail, id: string): Promise<{ messageId: string; where: string }>;
}

export function mailFrom(env: NodeJS.ProcessEnv = process.env): string {
  return env.MAIL_FROM || "Printnear <no-reply@printnear.test>";
}

function smtpDelivery(url: string): MailDelivery {
  const transporter: Transporter = nodemailer.createTransport({
    url,
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
  } as SMTPTransport.Options);
  return {
    async send(mail) {
      const info = await transporter.sendMail(mail);
      return { messageId: String(info.messageId), where: "smtp" };
    },
  };
}

function outboxDelivery(dir: string): MailDelivery {
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" });
  return {
    async send(mail, id) {
      const info = await builder.sendMail(mail);
      await mkdir(dir, { recursive: true });
      const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${id}.eml`);
      await writeFile(file, info.message as Buffer);
      return { messageId: String(info.messageId), where: file };
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

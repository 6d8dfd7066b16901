// The mail service: queueMail stores a durable task and returns at once; the job runner sends it
// (retried with backoff), so a slow or failing mail server never slows or fails a request and a
// restart loses no queued mail. A batchKey sends at most one message per key per window.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { InStatement, ResultSet } from "@libsql/client";
import { oneLine } from "~/domain/one-line";
import { taskInsertStatement } from "../jobs/enqueue.server";
import { getClient } from "~/utils/db.server";

export const MAIL_TASK = "mail.send";

export interface MailRequest {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** extra headers, e.g. List-Unsubscribe */
  headers?: Record<string, string>;
  /** at most one message per batchKey per batchWindowMs (the first one is sent, later ones dropped) */
  batchKey?: string;
  /** default 15 minutes */
  batchWindowMs?: number;
  /** attempts before giving up (default 10: about 1.5 hours of backoff) */
  maxAttempts?: number;
}

export const mailPayloadSchema = z.object({
  to: z.string().email(),
  subject: z.string().min(1).max(300).transform(oneLine),
  text: z.string(),
  html: z.string().optional(),
  headers: z.record(z.string()).optional(),
  /** the message's durable identity, its Message-ID on every attempt (absent on tasks queued before it existed) */
  messageKey: z.string().max(100).optional(),
});

export const DEFAULT_BATCH_WINDOW_MS = 15 * 60 * 1000;

/**
 * The statements that queue one e-mail, for a caller that writes them in one batch with its own
 * rows: with a batchKey, the window's guarded upsert and then the task only when the window
 * opened, so a failed batch neither uses up the window nor loses the mail. The last statement's
 * rows hold the task id (none when the window was already taken).
 */
export function mailStatements(request: MailRequest, now = Date.now()): InStatement[] {
  const payload = mailPayloadSchema.parse({
    to: request.to,
    subject: request.subject,
    text: request.text,
    html: request.html,
    headers: request.headers,
    messageKey: `mail-${randomUUID()}`,
  });
  const task = taskInsertStatement(MAIL_TASK, payload, {
    maxAttempts: request.maxAttempts ?? 10,
    onlyIfChanged: Boolean(request.batchKey),
  });
  if (!request.batchKey) return [task];
  const windowMs = request.batchWindowMs ?? DEFAULT_BATCH_WINDOW_MS;
  return [
    {
      sql: `INSERT INTO mail_batches (batch_key, window_ends_at) VALUES (?, ?)
            ON CONFLICT (batch_key) DO UPDATE SET window_ends_at = excluded.window_ends_at
            WHERE mail_batches.window_ends_at <= ?`,
      args: [request.batchKey, now + windowMs, now],
    },
    task,
  ];
}

/**
 * Ends a batch's window early, so the next message of that key is e-mailed at once. Reading a
 * conversation does this: what arrives after the reader has caught up is news again.
 */
export async function closeMailBatch(batchKey: string): Promise<void> {
  const client = await getClient();
  await client.execute({ sql: "DELETE FROM mail_batches WHERE batch_key = ?", args: [batchKey] });
}

/** The task id a batch of mailStatements wrote (the last result), or null when its window was taken. */
export function queuedMailId(results: ResultSet[]): number | null {
  const row = results.at(-1)?.rows[0];
  return row ? Number(row.id) : null;
}

/** Queues one e-mail. Returns its task id, or null (skipped) when its batch already sent one this window. */
export async function queueMail(request: MailRequest, now = Date.now()): Promise<{ id: number | null; skipped: boolean }> {
  const client = await getClient();
  const id = queuedMailId(await client.batch(mailStatements(request, now), "write"));
  return { id, skipped: id === null };
}

// The mail service: queueMail stores a durable task and returns at once; the job runner sends it
// (retried with backoff), so a slow or failing mail server never slows or fails a request and a
// restart loses no queued mail. A batchKey sends at most one message per key per window.
import { z } from "zod";
import { enqueueTask } from "../jobs/runner.server";
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
  subject: z.string().min(1).max(300),
  text: z.string(),
  html: z.string().optional(),
  headers: z.record(z.string()).optional(),
});
export type MailPayload = z.infer<typeof mailPayloadSchema>;

export const DEFAULT_BATCH_WINDOW_MS = 15 * 60 * 1000;

/** Queues one e-mail. Returns its task id, or null (skipped) when its batch already sent one this window. */
export async function queueMail(request: MailRequest, now = Date.now()): Promise<{ id: number | null; skipped: boolean }> {
  const payload = mailPayloadSchema.parse({
    to: request.to,
    subject: request.subject,
    text: request.text,
    html: request.html,
    headers: request.headers,
  });
  if (request.batchKey && !(await openBatchWindow(request.batchKey, request.batchWindowMs ?? DEFAULT_BATCH_WINDOW_MS, now))) {
    return { id: null, skipped: true };
  }
  const { id } = await enqueueTask(MAIL_TASK, payload, { maxAttempts: request.maxAttempts ?? 10 });
  return { id, skipped: false };
}

/** One guarded upsert: true for the first caller of a key in a window, false for the rest. */
async function openBatchWindow(batchKey: string, windowMs: number, now: number): Promise<boolean> {
  const client = await getClient();
  const result = await client.execute({
    sql: `INSERT INTO mail_batches (batch_key, window_ends_at) VALUES (?, ?)
          ON CONFLICT (batch_key) DO UPDATE SET window_ends_at = excluded.window_ends_at
          WHERE mail_batches.window_ends_at <= ?`,
    args: [batchKey, now + windowMs, now],
  });
  return result.rowsAffected > 0;
}

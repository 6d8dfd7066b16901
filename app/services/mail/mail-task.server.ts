// The task that sends one queued e-mail, at least once and never again once the server accepted
// it: the message is marked "sending" before and "sent" right after the server's acceptance, and
// a retry of a send whose outcome is unknown goes out under the same Message-ID (decision 032).
// Logs name the task and the message's key (its Message-ID's left part), never an address, the
// subject or the body.
import { PermanentTaskError, registerTaskHandler } from "../jobs/runner.server";
import { MAIL_TASK, mailPayloadSchema } from "./index.server";
import { mailDelivery, mailFrom, messageIdFor } from "./transport.server";

/** The task's one item: the message's outcome ("sending", then "sent"). */
const MESSAGE_ITEM = "message";

registerTaskHandler(MAIL_TASK, async (ctx) => {
  const parsed = mailPayloadSchema.safeParse(ctx.payload);
  if (!parsed.success) throw new PermanentTaskError("Invalid mail payload");
  const { messageKey, ...mail } = parsed.data;
  const key = messageKey ?? `mail-task-${ctx.taskId}`;
  const recorded = (await ctx.doneItems()).get(MESSAGE_ITEM);
  // the server accepted it before the last worker could finish the task
  if (recorded === "sent") return { messageId: messageIdFor(key) };
  if (recorded === undefined && !(await ctx.recordItem(MESSAGE_ITEM, "sending"))) return null; // no longer ours
  const sent = await mailDelivery().send({ from: mailFrom(), ...mail }, key);
  await ctx.updateItem(MESSAGE_ITEM, "sent");
  // an outbox mail names its file, so a developer can open it
  console.log(`Mail sent: task ${ctx.taskId}, message ${key} (${sent.where === "smtp" ? "SMTP" : `outbox file ${sent.where}`})`);
  return { messageId: sent.messageId };
});

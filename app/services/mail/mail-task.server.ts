// The task that sends one queued e-mail. Logs say who and what subject, never the body.
import { PermanentTaskError, registerTaskHandler } from "../jobs/runner.server";
import { MAIL_TASK, mailPayloadSchema } from "./index.server";
import { mailDelivery, mailFrom } from "./transport.server";

registerTaskHandler(MAIL_TASK, async (ctx) => {
  const parsed = mailPayloadSchema.safeParse(ctx.payload);
  if (!parsed.success) throw new PermanentTaskError("Invalid mail payload");
  const mail = parsed.data;
  const sent = await mailDelivery().send({ from: mailFrom(), ...mail }, `mail-${ctx.taskId}`);
  // an outbox mail names its file, so a developer can open it
  console.log(`Mail sent to ${mail.to}: "${mail.subject}" (${sent.where === "smtp" ? "SMTP" : `outbox file ${sent.where}`})`);
  return { messageId: sent.messageId };
});

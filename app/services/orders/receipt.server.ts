// The customer's receipt when their card is authorised for an order (docs/decisions/037): always
// sent, whatever the notification settings, as a receipt is not a notification.
import { eq } from "drizzle-orm";
import { users } from "../../../db/schema";
import { oneLine } from "~/domain/one-line";
import { orderReceipt } from "~/domain/receipt";
import { queueMail } from "~/services/mail/index.server";
import { notificationEmail } from "~/services/notifications.server";
import { getDb } from "~/utils/db.server";
import type { JobParty } from "./jobs.server";

export async function sendReceipt(party: JobParty): Promise<void> {
  const { job } = party;
  const db = await getDb();
  const [customer] = await db
    .select({ email: users.email, firstName: users.firstName })
    .from(users)
    .where(eq(users.id, job.customerId));
  if (!customer) return;
  const receipt = orderReceipt({ ...job, printerName: party.printerName });
  const mail = notificationEmail({
    firstName: customer.firstName,
    title: receipt.title,
    message: receipt.message,
    lines: receipt.lines,
    link: `/order/${job.id}`,
    receipt: true,
  });
  await queueMail({ to: customer.email, subject: oneLine(`${receipt.title}: order #${job.id}`), ...mail });
}

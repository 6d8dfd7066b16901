import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { z } from "zod";
import { contactMessages } from "../../db/schema";
import { ContactPage, REPLY_PROMISE, type ContactFields } from "~/components/contact-page";
import { getDb } from "~/utils/db.server";
import { checkHoneypot } from "~/utils/honeypot.server";
import { isAppError } from "~/domain/app-error";
import { limitWrite } from "~/services/write-limits.server";
import { replyWithError } from "~/utils/app-error.server";
import { clientIp } from "~/utils/rate-limit.server";
import { getSessionUser } from "~/utils/session.server";
import { redirectWithToast } from "~/utils/toast.server";

// All four fields are required. Not exported, so it stays out of the browser bundle.
const ContactSchema = z.object({
  name: z
    .string({ required_error: "Name is required" })
    .trim()
    .min(1, "Name is required")
    .max(100, "Name must be at most 100 characters"),
  email: z.string({ required_error: "Email is required" }).trim().email("Enter a valid email address").max(254),
  subject: z
    .string({ required_error: "Subject is required" })
    .trim()
    .min(1, "Subject is required")
    .max(200, "Subject must be at most 200 characters"),
  message: z
    .string({ required_error: "Message is required" })
    .trim()
    .min(1, "Message is required")
    .max(5000, "Message must be at most 5000 characters"),
}) satisfies z.ZodType<ContactFields>;

export const meta: MetaFunction = () => [
  { title: "Contact & Support | Printnear" },
  { name: "description", content: `Questions about an order, a quote or listing your printer? ${REPLY_PROMISE}` },
];

// required/type/maxLength attributes for the form, derived from the one schema
export function loader() {
  return { constraint: getZodConstraint(ContactSchema) };
}

// /help re-exports this action too. The contact form is stored, not just acknowledged.
export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  checkHoneypot(formData);
  const submission = parseWithZod(formData, { schema: ContactSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });

  // the one write limiter (WRITE_LIMITS.contact), per address: the form is open to visitors
  try {
    await limitWrite({ address: clientIp(request) }, "contact");
  } catch (error) {
    if (!isAppError(error)) throw error;
    return replyWithError(submission, error);
  }

  const user = await getSessionUser(request);
  const db = await getDb();
  await db.insert(contactMessages).values({ ...submission.value, userId: user?.id ?? null });

  return redirectWithToast(new URL(request.url).pathname, {
    title: "Message Sent",
    description: `Thanks for getting in touch. ${REPLY_PROMISE}`,
  });
}

export default ContactPage;

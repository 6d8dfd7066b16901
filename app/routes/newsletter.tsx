import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { subscribe } from "~/services/newsletter.server";
import { checkHoneypot } from "~/utils/honeypot.server";
import { clientIp, hitRateLimit } from "~/utils/rate-limit.server";
import { getSessionUser } from "~/utils/session.server";
import { redirectWithToast } from "~/utils/toast.server";
import { safeRedirect } from "~/utils/session.server";

const SubscribeSchema = z.object({
  email: z.string().trim().email().max(254),
  interest: z.enum(["customer", "printer_owner", "investor"]).default("customer"),
});

export async function loader() {
  return redirect("/");
}

// POST /newsletter: the footer's sign-up form (double opt-in: a confirmation e-mail goes out).
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  checkHoneypot(form);
  const back = safeRedirect(form.get("redirectTo"), "/");
  const parsed = SubscribeSchema.safeParse({ email: form.get("email"), interest: form.get("interest") || undefined });
  if (!parsed.success) {
    return redirectWithToast(back, {
      title: "Missing Information",
      description: "Please enter a valid e-mail address.",
      variant: "destructive",
    });
  }
  const user = await getSessionUser(request);
  const limit = await hitRateLimit(`newsletter:${user ? `u${user.id}` : clientIp(request)}`, 10, 60 * 60_000);
  if (!limit.allowed) {
    return redirectWithToast(back, {
      title: "Too many requests",
      description: "Please try again later.",
      variant: "destructive",
    });
  }
  await subscribe({
    ...parsed.data,
    userId: user && user.email.toLowerCase() === parsed.data.email.toLowerCase() ? user.id : null,
  });
  return redirectWithToast(back, {
    title: "Check your inbox",
    description: "We sent you an e-mail: click its link to confirm your subscription.",
  });
}

import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { markNotificationsRead } from "~/utils/notifications.server";
import { requireUser, safeRedirect } from "~/utils/session.server";

// The bell's "Mark all as read" form posts here and goes back to the page it came from.
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  if (form.get("intent") === "mark-all-read") await markNotificationsRead(user.id);
  const referer = request.headers.get("referer");
  const back = referer ? new URL(referer).pathname + new URL(referer).search : "/dashboard";
  return redirect(safeRedirect(back));
}

export function loader() {
  return redirect("/dashboard");
}

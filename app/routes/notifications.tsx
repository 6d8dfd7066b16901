import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { markNotificationsRead } from "~/utils/notifications.server";
import { requireUser, safeRedirect } from "~/utils/session.server";

// The bell's "Mark all as read" form posts here and goes back to the page it came from.
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  if (form.get("intent") === "mark-all-read") await markNotificationsRead(user.id);
  return redirect(safeRedirect(refererPath(request.headers.get("referer"))));
}

function refererPath(referer: string | null): string | null {
  try {
    const url = new URL(referer ?? "");
    return `${url.pathname}${url.search}`;
  } catch {
    return null;
  }
}

export function loader() {
  return redirect("/dashboard");
}

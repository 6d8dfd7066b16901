import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Form } from "~/components/form";
import { Link } from "~/components/link";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { countUnreadNotifications, listNotifications, markNotificationsRead } from "~/services/notifications.server";
import { LocalTime } from "~/components/local-time";
import { requireUser, safeRedirect } from "~/utils/session.server";

export const meta: MetaFunction = () => [{ title: "Notifications | Printnear" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [notifications, unread] = await Promise.all([listNotifications(user.id, 100), countUnreadNotifications(user.id)]);
  return {
    unread,
    notifications: notifications.map((n) => ({ ...n, createdAt: n.createdAt.toISOString() })),
  };
}

// "Mark all as read" (here and in the bell) posts here and goes back to the page it came from.
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  if (form.get("intent") === "mark-all-read") await markNotificationsRead(user.id);
  return redirect(safeRedirect(refererPath(request.headers.get("referer")), "/notifications"));
}

function refererPath(referer: string | null): string | null {
  try {
    const url = new URL(referer ?? "");
    return `${url.pathname}${url.search}`;
  } catch {
    return null;
  }
}

export default function NotificationsPage() {
  const { notifications, unread } = useLoaderData<typeof loader>();
  return (
    <div className="container-page max-w-3xl py-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">Notifications</h1>
          <p className="text-slate-600">
            {unread > 0 ? `${unread} unread` : "You're all caught up."}{" "}
            <Link to="/profile#email-settings" className="text-brand-700 hover:underline">
              E-mail settings
            </Link>
          </p>
        </div>
        {unread > 0 ? (
          <Form method="post">
            <button type="submit" name="intent" value="mark-all-read" className="btn-secondary">
              Mark all as read
            </button>
          </Form>
        ) : null}
      </div>
      {notifications.length === 0 ? (
        <p className="mt-8 rounded-lg border border-dashed border-slate-300 p-10 text-center text-slate-500">No notifications</p>
      ) : (
        <ul className="mt-6 divide-y divide-slate-200 rounded-lg border border-slate-200" data-testid="notification-list">
          {notifications.map((n) => (
            <li key={n.id} className={`p-4 ${n.isRead ? "" : "bg-brand-50"}`}>
              <div className="flex items-baseline justify-between gap-3">
                <p className="font-medium">
                  {n.isRead ? null : <span className="sr-only">Unread: </span>}
                  {n.link ? (
                    <Link to={n.link} className="hover:underline">
                      {n.title}
                    </Link>
                  ) : (
                    n.title
                  )}
                </p>
                <LocalTime value={n.createdAt} className="shrink-0 text-xs text-slate-600" />
              </div>
              <p className="text-sm text-slate-600">{n.message}</p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

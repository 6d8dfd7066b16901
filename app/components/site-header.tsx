import { useLocation } from "@remix-run/react";
import { Form } from "./form";
import { Link, NavLink } from "./link";
import { useEffect, useRef } from "react";
import type { RootUser } from "~/domain/signed-in-user";
import { LocalTime } from "./local-time";
import { badgeCount } from "~/domain/format";
import { UserAvatar } from "./user-avatar";

const MAIN_LINKS = [
  { to: "/models", label: "Browse Models" },
  { to: "/browse", label: "Find Printers" },
  { to: "/how-it-works", label: "How it Works" },
  { to: "/pricing", label: "Pricing" },
];

const USER_LINKS = [
  { to: "/printer-dashboard", label: "My Printers" },
  { to: "/messages", label: "Messages" },
  { to: "/dashboard", label: "My Orders" },
  { to: "/upload", label: "Upload Design" },
];

// labels stay on one line; between 1024 and 1280 px the signed-in header is tight (eight links, a
// badge, the bell and the avatar), so links pad less there
const navClass = ({ isActive }: { isActive: boolean }) =>
  `whitespace-nowrap rounded-md px-2 py-2 text-sm font-medium lg:px-1.5 xl:px-3 ${isActive ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:text-brand-700"}`;

function Badge({ count, label }: { count: number; label: string }) {
  if (count <= 0) return null;
  return (
    <span className="ml-1 rounded-full bg-red-600 px-1.5 text-xs font-semibold text-white" aria-label={`${count} ${label}`}>
      {badgeCount(count)}
    </span>
  );
}

function NotificationBell({ user }: { user: RootUser }) {
  return (
    <details className="relative">
      <summary
        className="btn-ghost relative cursor-pointer px-2"
        aria-label={`Notifications, ${user.unreadNotifications} unread`}
      >
        <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M18 8a6 6 0 1 0-12 0c0 7-3 9-3 9h18s-3-2-3-9M13.7 21a2 2 0 0 1-3.4 0" />
        </svg>
        {user.unreadNotifications > 0 ? (
          <span
            data-testid="notification-badge"
            className="absolute -top-1 -right-1 rounded-full bg-red-600 px-1.5 text-xs font-semibold text-white"
          >
            {badgeCount(user.unreadNotifications)}
          </span>
        ) : null}
      </summary>
      <div className="card absolute right-0 z-50 mt-2 w-80 p-2">
        <div className="flex items-center justify-between px-2 py-1">
          <h2 className="text-sm font-semibold">Notifications</h2>
          {user.unreadNotifications > 0 ? (
            <Form method="post" action="/notifications">
              <input type="hidden" name="intent" value="mark-all-read" />
              <button className="text-xs text-brand-600 hover:underline">Mark all as read</button>
            </Form>
          ) : null}
        </div>
        {user.notifications.length === 0 ? (
          <p className="px-2 py-4 text-center text-sm text-slate-500">No notifications</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {user.notifications.map((n) => (
              <li
                key={n.id}
                className={`px-2 py-2 text-sm ${n.isRead ? "text-slate-500" : "bg-brand-50 font-medium text-slate-900"}`}
              >
                {n.link ? (
                  <Link to={n.link} className="hover:underline">
                    {n.title}
                  </Link>
                ) : (
                  <p>{n.title}</p>
                )}
                <p className="font-normal">{n.message}</p>
                <p className="text-xs text-slate-600">
                  <LocalTime value={n.createdAt} />
                </p>
              </li>
            ))}
          </ul>
        )}
        <Link to="/notifications" className="mt-1 block rounded px-2 py-2 text-center text-sm text-brand-700 hover:bg-slate-50">
          See all notifications
        </Link>
      </div>
    </details>
  );
}

function AvatarMenu({ user }: { user: RootUser }) {
  const isOwner = user.userType === "printer_owner" || user.userType === "both";
  const fullName = [user.firstName, user.lastName].filter(Boolean).join(" ") || user.username;
  return (
    <details className="relative">
      <summary className="cursor-pointer rounded-full" aria-label="Account menu">
        <UserAvatar user={user} />
      </summary>
      <div className="card absolute right-0 z-50 mt-2 w-60 py-2 text-sm">
        <div className="border-b border-slate-100 px-4 pb-2">
          <p className="font-medium">{fullName}</p>
          <p className="truncate text-slate-500">{user.email}</p>
        </div>
        <Link className="block px-4 py-2 hover:bg-slate-50" to="/dashboard">
          Dashboard
        </Link>
        <Link className="block px-4 py-2 hover:bg-slate-50" to="/profile">
          Profile Settings
        </Link>
        {isOwner ? (
          <Link className="block px-4 py-2 hover:bg-slate-50" to="/printer-dashboard">
            Printer Dashboard
          </Link>
        ) : null}
        {user.isAdmin ? (
          <Link className="block px-4 py-2 hover:bg-slate-50" to="/admin">
            Admin
          </Link>
        ) : null}
        <Form method="post" action="/logout">
          <button className="block w-full px-4 py-2 text-left hover:bg-slate-50">Sign Out</button>
        </Form>
      </div>
    </details>
  );
}

/**
 * The header's menus are <details>, so they open and close without JavaScript. With it they also
 * close after a navigation, on a click outside and on Escape (focus goes back to the toggle),
 * and opening one closes the others.
 */
function useHeaderMenus() {
  const header = useRef<HTMLElement>(null);
  const location = useLocation();

  useEffect(() => {
    header.current?.querySelectorAll("details[open]").forEach((menu) => menu.removeAttribute("open"));
  }, [location.key]);

  useEffect(() => {
    const root = header.current;
    if (!root) return;
    const openMenus = () => Array.from(root.querySelectorAll<HTMLDetailsElement>("details[open]"));
    const onPointerDown = (event: PointerEvent) => {
      for (const menu of openMenus()) if (!menu.contains(event.target as Node)) menu.open = false;
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      const open = openMenus();
      if (open.length === 0) return;
      for (const menu of open) menu.open = false;
      open[open.length - 1].querySelector("summary")?.focus();
    };
    // "toggle" does not bubble: listen while capturing
    const onToggle = (event: Event) => {
      const opened = event.target as HTMLDetailsElement;
      if (!opened.open) return;
      for (const menu of openMenus()) if (menu !== opened && !menu.contains(opened)) menu.open = false;
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    root.addEventListener("toggle", onToggle, true);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
      root.removeEventListener("toggle", onToggle, true);
    };
  }, []);

  return header;
}

/** Below 1024 px the bell is a link to /notifications beside the menu toggle, with the unread count. */
function SmallScreenBell({ user }: { user: RootUser }) {
  return (
    <Link
      to="/notifications"
      className="btn-ghost relative px-2"
      aria-label={`Open notifications (${user.unreadNotifications} unread)`}
      data-testid="small-screen-bell"
    >
      <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
        <path d="M18 8a6 6 0 1 0-12 0c0 7-3 9-3 9h18s-3-2-3-9M13.7 21a2 2 0 0 1-3.4 0" />
      </svg>
      {user.unreadNotifications > 0 ? (
        <span className="absolute -top-1 -right-1 rounded-full bg-red-600 px-1.5 text-xs font-semibold text-white">
          {badgeCount(user.unreadNotifications)}
        </span>
      ) : null}
    </Link>
  );
}

export function SiteHeader({ user }: { user: RootUser | null }) {
  const header = useHeaderMenus();
  return (
    <header ref={header} className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="container-page flex h-16 items-center gap-2 xl:gap-4">
        <Link to="/" className="flex items-center gap-2 text-lg font-bold text-brand-700">
          <svg aria-hidden="true" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M12 2 3 7v10l9 5 9-5V7z M3 7l9 5 9-5 M12 12v10" />
          </svg>
          {/* signed in, from 1024 to 1280 px the eight links, the bell and the avatar need the wordmark's room */}
          <span className={user ? "lg:sr-only xl:not-sr-only" : undefined}>Printnear</span>
        </Link>
        <nav aria-label="Main" className="hidden flex-1 items-center gap-0.5 md:flex xl:gap-1">
          {MAIN_LINKS.map((link) => (
            <NavLink key={link.to} to={link.to} className={navClass}>
              {link.label}
            </NavLink>
          ))}
        </nav>
        <div className="ml-auto hidden items-center gap-0.5 lg:flex xl:gap-1">
          {user ? (
            <>
              {USER_LINKS.map((link) => (
                <NavLink key={link.to} to={link.to} className={navClass}>
                  {link.label}
                  {link.to === "/messages" ? <Badge count={user.unreadMessages} label="unread messages" /> : null}
                </NavLink>
              ))}
              <NotificationBell user={user} />
              <AvatarMenu user={user} />
            </>
          ) : (
            <>
              <Link to="/auth" className="btn-ghost">
                Sign In
              </Link>
              <Link to="/auth?tab=register" className="btn-primary">
                Get Started
              </Link>
            </>
          )}
        </div>
        {user ? (
          <div className="ml-auto lg:hidden">
            <SmallScreenBell user={user} />
          </div>
        ) : null}
        <details className={`${user ? "" : "ml-auto "}lg:hidden`}>
          <summary className="btn-ghost cursor-pointer px-2" aria-label="Menu">
            <svg aria-hidden="true" width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
              <path d="M4 6h16M4 12h16M4 18h16" />
            </svg>
          </summary>
          <nav aria-label="Mobile" className="absolute inset-x-0 top-16 z-50 border-b border-slate-200 bg-white p-4 shadow-lg">
            <div className="grid gap-1">
              {MAIN_LINKS.map((link) => (
                <NavLink key={link.to} to={link.to} className={navClass}>
                  {link.label}
                </NavLink>
              ))}
              {user ? (
                <>
                  {USER_LINKS.map((link) => (
                    <NavLink key={link.to} to={link.to} className={navClass}>
                      {link.label}
                      {link.to === "/messages" ? <Badge count={user.unreadMessages} label="unread messages" /> : null}
                    </NavLink>
                  ))}
                  <NavLink to="/profile" className={navClass}>
                    Profile Settings
                  </NavLink>
                  <Form method="post" action="/logout">
                    <button className="btn-ghost w-full justify-start">Sign Out</button>
                  </Form>
                </>
              ) : (
                <>
                  <Link to="/auth" className="btn-ghost justify-start">
                    Sign In
                  </Link>
                  <Link to="/auth?tab=register" className="btn-primary">
                    Get Started
                  </Link>
                </>
              )}
            </div>
          </nav>
        </details>
      </div>
    </header>
  );
}

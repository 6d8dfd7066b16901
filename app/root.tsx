import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useMatches,
  useRouteLoaderData,
} from "@remix-run/react";
import { HoneypotProvider } from "remix-utils/honeypot/react";
import { AppShell } from "./components/app-shell";
import { InAppSubmission } from "./components/form";
import { InAppNavigation } from "./components/link";
import { GeneralErrorBoundary } from "./components/error-boundary";
import { LiveUpdates } from "./components/live-updates";
import { SiteFooter } from "./components/site-footer";
import { SiteHeader } from "./components/site-header";
import { Toaster, type ToastData } from "./components/toaster";
import stylesheet from "./tailwind.css?url";
import { publicUser } from "./utils/api.server";
import type { FreshHeaderCounts, RootUser } from "./domain/signed-in-user";
import { timeZoneForState } from "./domain/time-zones";
import { lookupZip } from "./services/gazetteer.server";
import { mocksEnabled } from "./utils/env.server";
import { honeypotInputProps } from "./utils/honeypot.server";
import { readHeader } from "./services/notifications.server";
import { getSessionUser } from "./utils/session.server";
import { getToast } from "./utils/toast.server";
import { useNonce } from "~/utils/nonce-provider";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/icons/icon-192.png" },
];

export const meta: MetaFunction = ({ error }) => [
  {
    title: error
      ? isRouteErrorResponse(error) && error.status === 404
        ? "Page not found | Printnear"
        : "Something went wrong | Printnear"
      : "Printnear: 3D prints from printers near you",
  },
  {
    name: "description",
    content: "Upload a design or pick a model, get an instant, honest quote and have it printed by a local printer owner.",
  },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const [sessionUser, { toast, headers }] = await Promise.all([getSessionUser(request), getToast(request)]);
  let user: RootUser | null = null;
  if (sessionUser) {
    // the bell's five newest and both badges' counts, in one statement
    user = { ...publicUser(sessionUser), ...(await readHeader(sessionUser.id, 5)) };
  }
  // The zone times are rendered in before the browser reports its own: the profile ZIP's state.
  const timeZone = timeZoneForState(lookupZip(sessionUser?.zipCode)?.state);
  return data({ user, toast, timeZone, honeypot: honeypotInputProps(), mocks: mocksEnabled }, { headers: headers ?? undefined });
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  const nonce = useNonce();
  // a page may answer a toast of its own in its data (a background job it follows has finished)
  const matches = useMatches();
  const pageToast = matches
    .map((m) => (m.data as { jobToast?: ToastData | null } | undefined)?.jobToast)
    .filter((t): t is ToastData => !!t)
    .at(-1);
  const freshUnreadMessages = matches
    .map((m) => (m.data as FreshHeaderCounts | undefined)?.headerUnreadMessages)
    .filter((n): n is number => typeof n === "number")
    .at(-1);
  const user =
    root?.user && freshUnreadMessages !== undefined
      ? { ...root.user, unreadMessages: freshUnreadMessages }
      : (root?.user ?? null);
  return (
    <html lang="en" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1f57d0" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-full flex-col bg-white font-sans text-slate-900 antialiased">
        {root?.mocks ? (
          <p className="bg-amber-100 px-4 py-1 text-center text-xs text-amber-900" data-testid="mock-mode">
            Demo mode: payments, the model catalogue and other outside services are answered by built-in test providers. No real
            charge, no real calls.
          </p>
        ) : null}
        <SiteHeader user={user} />
        <main className="flex-1">{children}</main>
        <SiteFooter />
        <Toaster toast={pageToast ?? root?.toast ?? null} />
        {root?.user ? <LiveUpdates /> : null}
        <AppShell signedIn={!!root?.user} />
        <InAppNavigation />
        <InAppSubmission />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { honeypot } = useLoaderData<typeof loader>();
  return (
    <HoneypotProvider {...honeypot}>
      <Outlet />
    </HoneypotProvider>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

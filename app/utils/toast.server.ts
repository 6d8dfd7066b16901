// Toasts flashed through a cookie so they show after a plain form post and redirect too.
import { createCookieSessionStorage, redirect, redirectDocument } from "@remix-run/node";
import { z } from "zod";
import { cookieOptions } from "./env.server";

export const ToastSchema = z.object({
  title: z.string(),
  description: z.string().optional(),
  variant: z.enum(["default", "destructive"]).default("default"),
});
export type Toast = z.infer<typeof ToastSchema>;
export type ToastInput = z.input<typeof ToastSchema>;

const TOAST_KEY = "toast";
const TOAST_COOKIE = "pn_toast";

let storage: ReturnType<typeof createCookieSessionStorage<Record<string, never>, { toast: Toast }>> | undefined;
function toastStorage() {
  storage ??= createCookieSessionStorage<Record<string, never>, { toast: Toast }>({
    cookie: { name: TOAST_COOKIE, ...cookieOptions() },
  });
  return storage;
}

/** A Set-Cookie header that shows this toast on the next page. */
export async function createToastHeader(toast: ToastInput): Promise<string> {
  const session = await toastStorage().getSession();
  session.flash(TOAST_KEY, ToastSchema.parse(toast));
  return toastStorage().commitSession(session);
}

/** The pending toast, and the header that clears it. */
export async function getToast(request: Request): Promise<{ toast: Toast | null; headers: Headers | null }> {
  const header = request.headers.get("cookie");
  // most requests carry no toast: nothing to parse, and no refused parse (zod's error) to build
  if (!header?.includes(`${TOAST_COOKIE}=`)) return { toast: null, headers: null };
  const session = await toastStorage().getSession(header);
  const parsed = ToastSchema.safeParse(session.get(TOAST_KEY));
  if (!parsed.success) return { toast: null, headers: null };
  return { toast: parsed.data, headers: new Headers({ "set-cookie": await toastStorage().destroySession(session) }) };
}

export async function redirectWithToast(url: string, toast: ToastInput, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  headers.append("set-cookie", await createToastHeader(toast));
  return redirect(url, { ...init, headers });
}

/**
 * Like redirectWithToast, but the browser loads the target as a new document even after a
 * client-side navigation, so the target page's own answer headers (its Content-Security-Policy)
 * apply. Without JavaScript it is the same plain redirect.
 */
export async function redirectDocumentWithToast(url: string, toast: ToastInput, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  headers.append("set-cookie", await createToastHeader(toast));
  return redirectDocument(url, { ...init, headers });
}

export function combineHeaders(...all: Array<HeadersInit | null | undefined>): Headers {
  const combined = new Headers();
  for (const headers of all) {
    if (!headers) continue;
    for (const [key, value] of new Headers(headers).entries()) combined.append(key, value);
  }
  return combined;
}

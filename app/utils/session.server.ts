// Database sessions: the cookie holds only a random session id; the row says who it is.
import { randomBytes } from "node:crypto";
import { createCookie, redirect } from "react-router";
import { and, eq, gt } from "drizzle-orm";
import { sessions, users, type User } from "../../db/schema";
import { getDb } from "./db.server";
import { cookieOptions } from "./env.server";
import { clientIp } from "./rate-limit.server";
import { readFromPrimaryOnMiss } from "./replica.server";
import { pageUrl } from "./page-url";

export const SESSION_DAYS = 30;
const SESSION_MS = SESSION_DAYS * 24 * 60 * 60 * 1000;

const SESSION_COOKIE = "pn_session";
let cookie: ReturnType<typeof createCookie> | undefined;
function sessionCookie() {
  cookie ??= createCookie(SESSION_COOKIE, cookieOptions(SESSION_DAYS * 24 * 60 * 60));
  return cookie;
}

async function readSessionId(request: Request): Promise<string | null> {
  const value = await sessionCookie().parse(request.headers.get("cookie"));
  return typeof value === "string" && value.length > 0 ? value : null;
}

const cache = new WeakMap<Request, Promise<User | null>>();

async function sessionUser(sessionId: string): Promise<User | undefined> {
  const db = await getDb();
  const [row] = await db
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sessionId), gt(sessions.expiresAt, new Date())))
    .limit(1);
  return row?.user;
}

/**
 * The signed-in user of this request, or null. Looked up once per Request object: the loaders of one request
 * share it (future.v8_passThroughRequests).
 */
export function getSessionUser(request: Request): Promise<User | null> {
  let pending = cache.get(request);
  if (!pending) {
    pending = (async () => {
      const sessionId = await readSessionId(request);
      if (!sessionId) return null;
      // a session started through another machine a moment ago
      return readFromPrimaryOnMiss(() => sessionUser(sessionId));
    })();
    cache.set(request, pending);
  }
  return pending;
}

/** Who is asking, for the services that count per visitor: the signed-in user's id (or null) and the client's address. */
export async function visitorOf(request: Request): Promise<{ userId: number | null; clientIp: string }> {
  const user = await getSessionUser(request);
  return { userId: user?.id ?? null, clientIp: clientIp(request) };
}

/** Starts a brand-new session (a new id on every sign-in) and returns its Set-Cookie header. */
export async function createUserSession(userId: number): Promise<string> {
  const db = await getDb();
  const id = randomBytes(32).toString("base64url");
  await db.insert(sessions).values({ id, userId, expiresAt: new Date(Date.now() + SESSION_MS) });
  return sessionCookie().serialize(id);
}

/** Deletes this request's session row and returns the Set-Cookie header that clears the cookie. */
export async function destroyUserSession(request: Request): Promise<string> {
  const sessionId = await readSessionId(request);
  if (sessionId) {
    const db = await getDb();
    await db.delete(sessions).where(eq(sessions.id, sessionId));
  }
  return sessionCookie().serialize("", { maxAge: 0, expires: new Date(0) });
}

/**
 * Only same-site paths: never an absolute URL, a protocol-relative one, or one that control
 * characters, backslashes or dot segments turn into either ("/.//evil.com" normalises to "//evil.com").
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/dashboard"): string {
  // browsers drop tabs and newlines and read "\" as "/", so "/\t/evil.com" would leave the site
  if (typeof to !== "string" || !isSameSitePath(to)) return fallback;
  const base = "http://printnear.invalid";
  try {
    const url = new URL(to, base);
    if (url.origin !== base) return fallback;
    const normalized = `${url.pathname}${url.search}${url.hash}`;
    // the normalized result is what the browser receives: it must itself be a same-site path
    return isSameSitePath(normalized) && new URL(normalized, base).origin === base ? normalized : fallback;
  } catch {
    return fallback;
  }
}

function isSameSitePath(path: string) {
  if (!path.startsWith("/") || /[\u0000-\u001f\u007f\\]/.test(path)) return false;
  // "//host" and "/%2f/host" or "/%5chost" read by a lenient client as a host
  return !/^\/(\/|%2f|%5c)/i.test(path);
}

/** Pages: the signed-in user, or a redirect to the sign-in screen that comes back here after. */
export async function requireUser(request: Request): Promise<User> {
  const user = await getSessionUser(request);
  if (user) return user;
  const url = pageUrl(request);
  const back = request.method === "GET" ? `${url.pathname}${url.search}` : url.pathname;
  throw redirect(`/auth?${new URLSearchParams({ redirectTo: back })}`);
}

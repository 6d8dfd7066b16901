// Database sessions: the cookie holds only a random session id; the row says who it is.
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { createCookie, redirect } from "@remix-run/node";
import { eq, getTableColumns } from "drizzle-orm";
import { sessions, users, type User } from "../../db/schema";
import { getDb } from "./db.server";
import { readRows } from "./read-rows.server";
import { cookieOptions } from "./env.server";
import { clientIp } from "./rate-limit.server";
import { currentRequestScope } from "./request-scope.server";
import { readFromPrimaryOnMiss } from "./replica.server";

export const SESSION_DAYS = 30;
const SESSION_MS = SESSION_DAYS * 24 * 60 * 60 * 1000;

const SESSION_COOKIE = "pn_session";
let cookie: ReturnType<typeof createCookie> | undefined;
function sessionCookie() {
  cookie ??= createCookie(SESSION_COOKIE, cookieOptions(SESSION_DAYS * 24 * 60 * 60));
  return cookie;
}

/** The signed cookie values already verified, and the session id each holds (the oldest let go first). */
const verified = new Map<string, string>();
const MAX_VERIFIED = 1000;

type ParseCookieHeader = (header: string) => Record<string, string | undefined>;
let parseCookieHeader: ParseCookieHeader | undefined;
/** The Cookie header parser of Remix's own cookies (the `cookie` package the server runtime requires). */
function cookieHeaderParser(): ParseCookieHeader {
  if (!parseCookieHeader) {
    const runtime = createRequire(createRequire(import.meta.url).resolve("@remix-run/server-runtime"));
    parseCookieHeader = (runtime("cookie") as { parse: ParseCookieHeader }).parse;
  }
  return parseCookieHeader;
}

async function readSessionId(request: Request): Promise<string | null> {
  const header = request.headers.get("cookie");
  // checking the signature is an HMAC per request (1 % of a signed-in page). A value once verified is
  // remembered by its whole signed text, as Remix's cookie parser reads it from the header (the same parser,
  // so the value remembered is the value verified); a changed byte is checked again, a refused value is not kept.
  const signed = header ? cookieHeaderParser()(header)[SESSION_COOKIE] : undefined;
  const known = signed === undefined ? undefined : verified.get(signed);
  if (known !== undefined) return known;
  const value = await sessionCookie().parse(header);
  if (typeof value !== "string" || value.length === 0) return null;
  if (signed !== undefined) {
    if (verified.size >= MAX_VERIFIED) verified.delete(verified.keys().next().value!);
    verified.set(signed, value);
  }
  return value;
}

const cache = new WeakMap<Request, Promise<User | null>>();

/** The users table's columns: each one's name in SQL, and how its stored value reads (drizzle's own decoder). */
const USER_COLUMNS = Object.entries(getTableColumns(users));

/** The unexpired session's user: every signed-in request asks it, as one of the few reads of readRows. */
const SESSION_USER_SQL = `SELECT ${USER_COLUMNS.map(([, column]) => `u."${column.name}"`).join(", ")}
  FROM sessions AS s JOIN users AS u ON u.id = s.user_id
  WHERE s.id = ? AND s.expires_at > ? LIMIT 1`;

async function sessionUser(sessionId: string): Promise<User | undefined> {
  const [row] = await readRows({ sql: SESSION_USER_SQL, args: [sessionId, Date.now()] });
  if (!row) return undefined;
  const user: Record<string, unknown> = {};
  for (const [key, column] of USER_COLUMNS) {
    const value = row[column.name];
    user[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return user as User;
}

/**
 * The signed-in user of this request, or null. Looked up once per request: per Request object (the loaders
 * share it when its address has no query; server/loader-requests.ts), and for a read-only request once for all
 * its loaders when Remix hands each a copy (see request-scope.server.ts).
 */
export function getSessionUser(request: Request): Promise<User | null> {
  const scope = currentRequestScope();
  const key = request.headers.get("cookie") ?? "";
  let pending = cache.get(request) ?? (scope?.sessionUsers.get(key) as Promise<User | null> | undefined);
  if (!pending) {
    pending = (async () => {
      const sessionId = await readSessionId(request);
      if (!sessionId) return null;
      // a session started through another machine a moment ago
      return readFromPrimaryOnMiss(() => sessionUser(sessionId));
    })();
    cache.set(request, pending);
    scope?.sessionUsers.set(key, pending);
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
  const url = new URL(request.url);
  const back = request.method === "GET" ? `${url.pathname}${url.search}` : url.pathname;
  throw redirect(`/auth?${new URLSearchParams({ redirectTo: back })}`);
}

// Settings read from the environment, with the defaults a developer's machine runs on.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";

export const isProduction = process.env.NODE_ENV === "production";
/** MOCKS=true: third-party HTTP is answered by the msw handlers of tests/mocks (labelled in the UI). */
export const mocksEnabled = process.env.MOCKS === "true";
/** Requests come over plain http on a developer's machine; Secure cookies only behind https. */
export const secureCookies = isProduction && process.env.INSECURE_COOKIES !== "true";

let cachedSecret: string | undefined;
/** SESSION_SECRET, or a random one kept in data/ so a demo machine needs no setup. */
export function sessionSecret(): string {
  if (cachedSecret) return cachedSecret;
  if (process.env.SESSION_SECRET) return (cachedSecret = process.env.SESSION_SECRET);
  const file = "data/.session-secret";
  if (existsSync(file)) return (cachedSecret = readFileSync(file, "utf8").trim());
  mkdirSync("data", { recursive: true });
  cachedSecret = randomBytes(32).toString("hex");
  writeFileSync(file, cachedSecret, { mode: 0o600 });
  return cachedSecret;
}

/**
 * What every cookie of ours shares: the whole site, out of scripts' reach, sent on top-level navigations from
 * elsewhere but not cross-site posts, Secure behind https, and signed with the session secret.
 */
export function cookieOptions(maxAgeSeconds?: number) {
  return {
    path: "/",
    httpOnly: true,
    sameSite: "lax" as const,
    secure: secureCookies,
    secrets: [sessionSecret()],
    ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }),
  };
}

/** The site's public address for links in e-mails (PUBLIC_URL, e.g. https://printnear.fly.dev). */
export function siteUrl(env: NodeJS.ProcessEnv = process.env): string {
  return (env.PUBLIC_URL || `http://localhost:${env.PORT || 3000}`).replace(/\/+$/, "");
}

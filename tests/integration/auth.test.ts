import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newsletterSubscribers, sessions, users } from "../../db/schema";
import { action as authAction, loader as authLoader } from "../../app/routes/auth";
import { action as loginApi } from "../../app/routes/api.login";
import { action as logoutAction } from "../../app/routes/logout";
import { loader as dashboardLoader } from "../../app/routes/dashboard";
import { LIMITS, signInDelaySeconds } from "../../app/services/accounts/sign-in.server";
import { getDb } from "../../app/utils/db.server";
import { getHoneypot } from "../../app/utils/honeypot.server";
import { CLIENT_IP_HEADER } from "../../app/utils/rate-limit.server";
import { args, createTestUser, formRequest, getRequest, jsonRequest, run } from "../setup/requests";

function withClientIp(request: Request, ip: string) {
  request.headers.set(CLIENT_IP_HEADER, ip);
  return request;
}

const honeypot = () => ({ [getHoneypot().getInputProps().nameFieldName]: "" });

function cookieFrom(response: Response, name = "pn_session") {
  const all = response.headers.getSetCookie?.() ?? [];
  return all.find((c) => c.startsWith(`${name}=`))?.split(";")[0];
}

describe("sign up", () => {
  it("creates the account, a session row, the newsletter subscription, and goes to /dashboard", async () => {
    const res = await run(() =>
      authAction(
        args(
          formRequest("/auth", {
            ...honeypot(),
            intent: "signup",
            username: "maker_jo",
            email: "Jo@Example.test",
            password: "long enough pw",
            newsletterSubscribed: "on",
          }),
        ),
      ),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/dashboard");
    const db = await getDb();
    const [user] = await db.select().from(users).where(eq(users.username, "maker_jo"));
    expect(user.email).toBe("jo@example.test");
    expect(user.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const rows = await db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(cookieFrom(res)).toBeTruthy();
    const subs = await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.userId, user.id));
    expect(subs).toHaveLength(1);
  });

  it("refuses a taken e-mail with 409 and keeps what was typed", async () => {
    const existing = await createTestUser();
    const res = await run(() =>
      authAction(
        args(
          formRequest("/auth", {
            ...honeypot(),
            intent: "signup",
            username: "someone_new",
            email: existing.email.toUpperCase(),
            password: "long enough pw",
          }),
        ),
      ),
    );
    expect(res.status).toBe(409);
    const body = await res.json();
    expect(body.result.error[""][0]).toBe("Registration Failed");
    expect(body.result.initialValue.username).toBe("someone_new");
    // what was typed comes back, the password never
    expect(body.result.initialValue.password).toBeUndefined();
  });

  it("asks for the missing fields with the document's words", async () => {
    const res = await run(() =>
      authAction(args(formRequest("/auth", { ...honeypot(), intent: "signup", username: "", email: "", password: "" }))),
    );
    expect(res.status).toBe(400);
    expect((await res.json()).result.error[""]).toEqual(["Missing Information", "Please fill in all required fields"]);
  });

  it("drops a form whose honeypot was filled", async () => {
    const res = await run(() =>
      authAction(
        args(
          formRequest("/auth", {
            [getHoneypot().getInputProps().nameFieldName]: "bot",
            intent: "signup",
            username: "bot_user",
            email: "bot@example.test",
            password: "long enough pw",
          }),
        ),
      ),
    );
    expect(res.status).toBe(400);
  });
});

describe("sign in", () => {
  it("gives a new session on every sign-in and returns to a local redirect only", async () => {
    const user = await createTestUser();
    const first = await run(() =>
      authAction(
        args(
          formRequest("/auth", {
            ...honeypot(),
            intent: "signin",
            email: user.email,
            password: "correct horse battery",
            redirectTo: "/saved-prints",
          }),
        ),
      ),
    );
    expect(first.headers.get("location")).toBe("/saved-prints");
    const second = await run(() =>
      authAction(
        args(
          formRequest("/auth", {
            ...honeypot(),
            intent: "signin",
            email: user.email,
            password: "correct horse battery",
            redirectTo: "https://evil.example/",
          }),
        ),
      ),
    );
    expect(second.headers.get("location")).toBe("/dashboard");
    expect(cookieFrom(first)).not.toBe(cookieFrom(second));
  });

  it("answers a wrong password with 401 Login Failed", async () => {
    const user = await createTestUser();
    const res = await run(() =>
      authAction(args(formRequest("/auth", { ...honeypot(), intent: "signin", email: user.email, password: "wrong" }))),
    );
    expect(res.status).toBe(401);
    expect((await res.json()).result.error[""]).toEqual(["Login Failed", "Invalid email or password"]);
  });

  it("slows wrong passwords for one e-mail from one address with growing waits, never the owner elsewhere", async () => {
    const user = await createTestUser();
    const attempt = (password: string, ip: string) =>
      run(() =>
        authAction(
          args(withClientIp(formRequest("/auth", { ...honeypot(), intent: "signin", email: user.email, password }), ip)),
        ),
      );
    const statuses: number[] = [];
    for (let i = 0; i <= LIMITS.freeFailuresPerEmailAndIp; i++) statuses.push((await attempt("wrong", "203.0.113.9")).status);
    expect(statuses.slice(0, LIMITS.freeFailuresPerEmailAndIp).every((s) => s === 401)).toBe(true);
    const slowed = await attempt("correct horse battery", "203.0.113.9");
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // the owner, from their own address, is not locked out by the stranger's guesses
    const owner = await attempt("correct horse battery", "198.51.100.7");
    expect(owner.status).toBe(302);
    expect([0, 4, 5, 6, 7].map(signInDelaySeconds)).toEqual([0, 0, 5, 10, 20]);
    expect(signInDelaySeconds(40)).toBe(15 * 60);
  });

  it("correct sign-ins from one address never run into its limit, on the page or through POST /api/login", async () => {
    const user = await createTestUser();
    const ip = "192.0.2.31";
    const page = () =>
      run(() =>
        authAction(
          args(
            withClientIp(
              formRequest("/auth", { ...honeypot(), intent: "signin", email: user.email, password: "correct horse battery" }),
              ip,
            ),
          ),
        ),
      );
    const api = () =>
      run(() =>
        loginApi(args(withClientIp(jsonRequest("/api/login", { email: user.email, password: "correct horse battery" }), ip))),
      );
    const statuses: number[] = [];
    for (let i = 0; i < LIMITS.loginPerIp; i++) statuses.push((await (i % 2 ? api() : page())).status);
    statuses.push((await page()).status, (await api()).status);
    expect(statuses.filter((s) => s !== 302 && s !== 200)).toEqual([]);
  });

  it("wrong passwords from one address, whatever the e-mail, use up its limit", async () => {
    const user = await createTestUser();
    const ip = "192.0.2.32";
    const attempt = (email: string, password: string) =>
      run(() => authAction(args(withClientIp(formRequest("/auth", { ...honeypot(), intent: "signin", email, password }), ip))));
    const statuses: number[] = [];
    for (let i = 0; i < LIMITS.loginPerIp; i++) statuses.push((await attempt(`stranger${i}@example.test`, "wrong")).status);
    expect(statuses.every((s) => s === 401)).toBe(true);
    const refused = await attempt(user.email, "correct horse battery");
    expect(refused.status).toBe(429);
    expect((await refused.json()).result.error[""][0]).toBe("Too Many Attempts");
  });

  it("sends a signed-in visitor of /auth on to the dashboard", async () => {
    const user = await createTestUser();
    const res = await run(() =>
      authAction(
        args(formRequest("/auth", { ...honeypot(), intent: "signin", email: user.email, password: "correct horse battery" })),
      ),
    );
    const cookie = cookieFrom(res)!;
    const again = await run(() => authLoader(args(getRequest("/auth", cookie))));
    expect(again.status).toBe(302);
  });
});

describe("sessions", () => {
  it("a protected page sends a visitor to sign in and back", async () => {
    const res = await run(() => dashboardLoader(args(getRequest("/dashboard?tab=drafts"))));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/auth?redirectTo=%2Fdashboard%3Ftab%3Ddrafts");
  });

  it("sign out deletes the session row so the old cookie is worthless", async () => {
    const user = await createTestUser();
    const signIn = await run(() =>
      authAction(
        args(formRequest("/auth", { ...honeypot(), intent: "signin", email: user.email, password: "correct horse battery" })),
      ),
    );
    const cookie = cookieFrom(signIn)!;
    const before = await run(() => dashboardLoader(args(getRequest("/dashboard", cookie))));
    expect(before.status).toBe(200);
    await run(() => logoutAction(args(formRequest("/logout", {}, { cookie }))));
    const db = await getDb();
    expect(await db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    const after = await run(() => dashboardLoader(args(getRequest("/dashboard", cookie))));
    expect(after.status).toBe(302);
  });
});

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { printers, users } from "../../db/schema";
import { USER_TYPE_REFUSED } from "../../app/domain/users";
import { getDb } from "../../app/utils/db.server";
import { loader as authUser } from "../../app/routes/api.auth.user";
import { action as login, loader as loginGet } from "../../app/routes/api.login";
import { action as logout, loader as logoutGet } from "../../app/routes/api.logout";
import { action as register, loader as registerGet } from "../../app/routes/api.register";
import { isAppError } from "../../app/domain/app-error";
import { AuthFailure } from "../../app/domain/auth-failure";
import { loginWithPassword } from "../../app/services/accounts/sign-in.server";
import { loader as adminCheck } from "../../app/routes/api.admin.check";
import { loader as notificationsApi } from "../../app/routes/api.users.$id.notifications";
import { action as patchUser } from "../../app/routes/api.users.$id";
import { loader as healthz } from "../../app/routes/healthz";
import { notify } from "../../app/services/notifications.server";
import { args, createTestUser, getRequest, jsonRequest, sessionCookieFor } from "../setup/requests";

const printerRow = (ownerId: number) => ({
  ownerId,
  name: "Garage Prusa",
  model: "Custom/Other",
  buildVolumeX: 200,
  buildVolumeY: 200,
  buildVolumeZ: 200,
  fitSmall: 100,
  fitMid: 100,
  fitLarge: 100,
  materials: ["PLA"],
  ratePerKgCents: 2000,
  location: "Denver, CO",
});

async function settle(promise: Promise<Response>): Promise<Response> {
  try {
    return await promise;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

const sessionOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith("pn_session="))!
    .split(";")[0];

describe("GET /api/auth/user", () => {
  it("answers the user for a session cookie and 401 without one", async () => {
    const user = await createTestUser({ firstName: "Robin" });
    const ok = await settle(authUser(args(getRequest("/api/auth/user", await sessionCookieFor(user.id)))));
    expect(ok.status).toBe(200);
    const body = await ok.json();
    expect(body).toMatchObject({ id: user.id, email: user.email, firstName: "Robin", userType: "customer" });
    expect(body).not.toHaveProperty("passwordHash");
    const anonymous = await settle(authUser(args(getRequest("/api/auth/user"))));
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ message: "Not authenticated" });
  });

  it("refuses a forged cookie", async () => {
    const res = await settle(authUser(args(getRequest("/api/auth/user", "pn_session=forged"))));
    expect(res.status).toBe(401);
  });
});

describe("JSON sign-in, sign-up and sign-out", () => {
  it("registers, signs out, and signs in again", async () => {
    const created = await settle(
      register(
        args(jsonRequest("/api/register", { username: "api_user", email: "api@example.test", password: "long enough pw" })),
      ),
    );
    expect(created.status).toBe(201);
    expect((await created.json()).username).toBe("api_user");
    const cookie = sessionOf(created);
    expect((await settle(authUser(args(getRequest("/api/auth/user", cookie))))).status).toBe(200);

    const out = await settle(logout(args(jsonRequest("/api/logout", {}, { cookie }))));
    expect(out.status).toBe(200);
    expect((await settle(authUser(args(getRequest("/api/auth/user", cookie))))).status).toBe(401);

    const back = await settle(login(args(jsonRequest("/api/login", { email: "API@example.test", password: "long enough pw" }))));
    expect(back.status).toBe(200);
    expect((await back.json()).email).toBe("api@example.test");
  });

  it("answers bad input with the documented messages and statuses", async () => {
    const missing = await settle(login(args(jsonRequest("/api/login", { email: "" }))));
    expect(missing.status).toBe(400);
    expect((await missing.json()).message).toBe("Please fill in all fields");
    const wrong = await settle(login(args(jsonRequest("/api/login", { email: "nobody@example.test", password: "x" }))));
    expect(wrong.status).toBe(401);
    const notJson = await settle(login(args(new Request("http://localhost/api/login", { method: "POST", body: "{oops" }))));
    expect(notJson.status).toBe(400);
    const notObject = await settle(login(args(jsonRequest("/api/login", ["a@b.c", "pw"]))));
    expect(notObject.status).toBe(400);
    const huge = await settle(
      login(args(jsonRequest("/api/login", { email: "x@example.test", password: "p".repeat(300 * 1024) }))),
    );
    expect(huge.status).toBe(413);
    const short = await settle(
      register(args(jsonRequest("/api/register", { username: "ab", email: "ab@example.test", password: "long enough pw" }))),
    );
    expect(short.status).toBe(400);
    expect((await short.json()).message).toBe("Username must be at least 3 characters");
  });

  it("answers a GET to the sign-in, sign-up and sign-out calls with 405 and Allow: POST, as every API call does", async () => {
    for (const get of [loginGet, registerGet, logoutGet]) {
      const res = await settle(Promise.resolve(get()));
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect(await res.json()).toEqual({ message: "Method not allowed" });
    }
  });

  it("reports a failed sign-in as an AppError with a status-neutral code, mapped by the one mapper", async () => {
    const failure = await loginWithPassword({ email: "nobody@example.test", password: "x" }, "local").catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(AuthFailure);
    expect(isAppError(failure)).toBe(true);
    expect(failure).toMatchObject({ code: "unauthenticated", title: "Login Failed" });
    expect(failure).not.toHaveProperty("status");
  });
});

describe("notifications and users", () => {
  it("lists one's own notifications, newest first, and refuses someone else's", async () => {
    const me = await createTestUser();
    const other = await createTestUser();
    await notify(me.id, "First", "one");
    await notify(me.id, "Second", "two");
    const cookie = await sessionCookieFor(me.id);
    const mine = await settle(
      notificationsApi(args(getRequest(`/api/users/${me.id}/notifications`, cookie), { id: String(me.id) })),
    );
    const list = await mine.json();
    expect(list.map((n: { title: string }) => n.title)).toEqual(["Second", "First"]);
    expect(list[0]).toMatchObject({ isRead: false, message: "two" });
    const theirs = await settle(
      notificationsApi(args(getRequest(`/api/users/${other.id}/notifications`, cookie), { id: String(other.id) })),
    );
    expect(theirs.status).toBe(403);
  });

  it("PATCH changes one's own profile and userType only", async () => {
    const me = await createTestUser();
    const other = await createTestUser();
    const cookie = await sessionCookieFor(me.id);
    const res = await settle(
      patchUser(
        args(jsonRequest(`/api/users/${me.id}`, { userType: "customer", firstName: "Sam" }, { cookie, method: "PATCH" }), {
          id: String(me.id),
        }),
      ),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ userType: "customer", firstName: "Sam" });
    const bad = await settle(
      patchUser(
        args(jsonRequest(`/api/users/${me.id}`, { userType: "admin" }, { cookie, method: "PATCH" }), { id: String(me.id) }),
      ),
    );
    expect(bad.status).toBe(400);
    const forbidden = await settle(
      patchUser(
        args(jsonRequest(`/api/users/${other.id}`, { firstName: "Hacked" }, { cookie, method: "PATCH" }), {
          id: String(other.id),
        }),
      ),
    );
    expect(forbidden.status).toBe(403);
    const taken = await settle(
      patchUser(
        args(jsonRequest(`/api/users/${me.id}`, { username: other.username }, { cookie, method: "PATCH" }), {
          id: String(me.id),
        }),
      ),
    );
    expect(taken.status).toBe(409);
  });

  it("PATCH sets only the account types the account may choose: no printer owner without a printer", async () => {
    const customer = await createTestUser();
    const cookie = await sessionCookieFor(customer.id);
    const patch = (userId: number, body: unknown, cookieHeader: string) =>
      settle(
        patchUser(
          args(jsonRequest(`/api/users/${userId}`, body, { cookie: cookieHeader, method: "PATCH" }), { id: String(userId) }),
        ),
      );
    for (const userType of ["printer_owner", "both"]) {
      const refused = await patch(customer.id, { userType }, cookie);
      expect(refused.status).toBe(403);
      expect((await refused.json()).message).toBe(USER_TYPE_REFUSED);
    }
    const db = await getDb();
    const [stored] = await db.select().from(users).where(eq(users.id, customer.id));
    expect(stored.userType).toBe("customer");

    // an owner with a listed printer may switch between printer_owner and both, not hide the printer
    const owner = await createTestUser({ userType: "both" });
    await db.insert(printers).values(printerRow(owner.id));
    const ownerCookie = await sessionCookieFor(owner.id);
    expect((await patch(owner.id, { userType: "printer_owner" }, ownerCookie)).status).toBe(200);
    expect((await patch(owner.id, { userType: "customer" }, ownerCookie)).status).toBe(403);
    expect((await patch(owner.id, { userType: "admin", isAdmin: true }, ownerCookie)).status).toBe(400);
  });

  it("admin check says who is an admin", async () => {
    const admin = await createTestUser({ isAdmin: true });
    const res = await settle(adminCheck(args(getRequest("/api/admin/check", await sessionCookieFor(admin.id)))));
    expect(await res.json()).toEqual({ isAdmin: true });
  });
});

describe("health", () => {
  it("answers 200 while the database answers", async () => {
    const res = await healthz();
    expect(res.status).toBe(200);
  });
});

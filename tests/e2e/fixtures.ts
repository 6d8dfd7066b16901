// Playwright fixtures: a test signs someone in with `signIn` (a demo account by its role, a person the test made,
// or a new customer of its own), which writes a session row and hands its cookie to the browser; only the auth
// tests click through the form.
import { randomBytes } from "node:crypto";
import { test as base, expect, type Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema";
import { getDb } from "../../app/utils/db.server";
import { createTestUser, sessionCookieFor } from "../setup/requests";

export const DEMO = {
  customer: "casey@printnear.test",
  admin: "admin@printnear.test",
  berthoudOwner: "bella@printnear.test",
  lovelandOwner: "leo@printnear.test",
  fortCollinsOwner: "fran@printnear.test",
  password: "printnear-demo",
};

/** A demo account by its role, or anyone with an account (a person the test made). */
export type Someone = Exclude<keyof typeof DEMO, "password"> | { email: string };

type User = typeof users.$inferSelect;

/** Signs `who` (without one: a new customer account) in on the test's page, or on another page of the test's. */
export type SignIn = (who?: Someone, onPage?: Page) => Promise<User>;

async function accountOf(who: Someone): Promise<User> {
  const email = typeof who === "string" ? DEMO[who] : who.email;
  const [user] = await (await getDb()).select().from(users).where(eq(users.email, email)).limit(1);
  if (!user) throw new Error("No such account to sign in");
  return user;
}

/** The Cookie header of a fresh session for `who`, for a test's own requests (no browser needed). */
export async function sessionCookie(who: Someone): Promise<string> {
  return sessionCookieFor((await accountOf(who)).id);
}

/** Signs a user in by e-mail: what the `signIn` fixture does, for helpers that hold a page but no fixture. */
export async function signInAs(page: Page, email: string): Promise<User> {
  const user = await accountOf({ email });
  const [name, ...value] = (await sessionCookieFor(user.id)).split("=");
  const baseURL = test.info().project.use.baseURL ?? "http://localhost:3005";
  await page.context().addCookies([{ name, value: value.join("="), url: baseURL }]);
  return user;
}

/** True in the project that runs with JavaScript turned off. */
export function jsDisabled() {
  return test.info().project.use.javaScriptEnabled === false;
}

/** A customer account of the test's own; the js and no-js projects run at once, so its names are random. */
async function newCustomer(): Promise<User> {
  const tag = randomBytes(6).toString("hex");
  return (await createTestUser({ email: `person-${tag}@example.test`, username: `person_${tag}` }))!;
}

export const test = base.extend<{ signIn: SignIn }>({
  signIn: async ({ page }, provide) => {
    await provide(async (who, onPage = page) => {
      const account = who === undefined ? await newCustomer() : who;
      return signInAs(onPage, typeof account === "string" ? DEMO[account] : account.email);
    });
  },
});
export { expect };

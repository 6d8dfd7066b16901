// Playwright fixtures: sign a demo user in by writing a session row (not by clicking), except in the auth tests.
import { test as base, expect, type Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema";
import { getDb } from "../../app/utils/db.server";
import { createUserSession } from "../../app/utils/session.server";

export async function signInAs(page: Page, email: string) {
  const db = await getDb();
  const [user] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  if (!user) throw new Error(`No demo user ${email}`);
  const [pair] = (await createUserSession(user.id)).split(";");
  const [name, ...rest] = pair.split("=");
  const baseURL = test.info().project.use.baseURL ?? "http://localhost:3005";
  await page.context().addCookies([{ name, value: rest.join("="), url: baseURL }]);
  return user;
}

export const DEMO = {
  customer: "casey@printnear.test",
  admin: "admin@printnear.test",
  berthoudOwner: "bella@printnear.test",
  lovelandOwner: "leo@printnear.test",
  fortCollinsOwner: "fran@printnear.test",
  password: "printnear-demo",
};

/** True in the project that runs with JavaScript turned off. */
export function jsDisabled() {
  return test.info().project.use.javaScriptEnabled === false;
}

export const test = base;
export { expect };

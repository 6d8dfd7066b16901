// Prints the Cookie header pair of a fresh session for a demo user (default: the demo customer), written the
// way tests/e2e/fixtures.ts signs users in: a session row, no sign-in form. Used by bench:load's signed-in run;
// run it with the app's DATABASE_URL and SESSION_SECRET.
import { eq } from "drizzle-orm";
import { users } from "../db/schema";
import { getDb } from "../app/utils/db.server";
import { createUserSession } from "../app/utils/session.server";

const email = process.argv[2] ?? "casey@printnear.test";
const db = await getDb();
const [user] = await db.select().from(users).where(eq(users.email, email)).limit(1);
if (!user) throw new Error(`No demo user ${email}`);
process.stdout.write((await createUserSession(user.id)).split(";")[0]!);

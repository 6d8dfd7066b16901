// Sessions for demo users, written the way tests/e2e/fixtures.ts signs users in (a session row, no sign-in form),
// and the demo records the benchmarks' signed-in pages name. Run directly, it prints JSON
// {cookies: {email: "pn_session=…"}, ids: {submitted, conversation, confirmed}} for the e-mails given
// (default: the demo customer); run it with the app's DATABASE_URL and SESSION_SECRET.
import { getClient } from "../app/utils/db.server";
import { createUserSession } from "../app/utils/session.server";

export interface DemoPageIds {
  /** a submitted order of the demo customer's (the checkout page) */
  submitted: number;
  /** the demo conversation: the job whose thread has the most messages (the demo customer's) */
  conversation: number;
  /** a confirmed order on a printer of the Berthoud owner's */
  confirmed: number;
}

export async function demoPageIds(): Promise<DemoPageIds> {
  const client = await getClient();
  const first = async (sql: string) => Number((await client.execute(sql)).rows[0]?.id ?? 0);
  return {
    submitted: await first("SELECT id FROM print_jobs WHERE status = 'submitted' ORDER BY id LIMIT 1"),
    conversation: await first("SELECT job_id AS id FROM messages GROUP BY job_id ORDER BY count(*) DESC, job_id LIMIT 1"),
    confirmed: await first(
      "SELECT j.id FROM print_jobs j JOIN printers p ON p.id = j.printer_id JOIN users u ON u.id = p.owner_id WHERE j.status = 'confirmed' AND u.email = 'bella@printnear.test' ORDER BY j.id LIMIT 1",
    ),
  };
}

/** The Cookie header pair of a fresh session for a demo user. */
export async function sessionCookieFor(email: string): Promise<string> {
  const client = await getClient();
  const user = await client.execute({ sql: "SELECT id FROM users WHERE email = ?", args: [email] });
  if (!user.rows[0]) throw new Error(`No demo user ${email}`);
  return (await createUserSession(Number(user.rows[0].id))).split(";")[0]!;
}

/** `path` with each {key} replaced by that demo record's id. */
export function withDemoIds(path: string, ids: DemoPageIds): string {
  return path.replace(/\{(\w+)\}/g, (_, key: string) => String(ids[key as keyof DemoPageIds]));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const emails = process.argv.slice(2);
  const cookies: Record<string, string> = {};
  for (const email of emails.length ? emails : ["casey@printnear.test"]) cookies[email] = await sessionCookieFor(email);
  process.stdout.write(JSON.stringify({ cookies, ids: await demoPageIds() }));
}

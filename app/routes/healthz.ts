import { getClient, unlessWriteLocked } from "~/utils/db.server";

const NO_STORE = { "cache-control": "no-store" };

// Fly's health check: 200 only when a write commits (a read-only or broken database is not healthy).
export async function loader() {
  try {
    const client = await getClient();
    const now = Date.now();
    const written = await unlessWriteLocked(
      () =>
        client.execute({
          sql: `INSERT INTO health_checks (id, checked_at) VALUES (1, ?1)
                ON CONFLICT(id) DO UPDATE SET checked_at = excluded.checked_at
                RETURNING checked_at`,
          args: [now],
        }),
      // another process holds the write lock: the database still answers, and writes wait their turn (decision 031)
      async () => {
        await client.execute("SELECT checked_at FROM health_checks WHERE id = 1");
        return null;
      },
    );
    if (!written) return new Response("OK (another connection holds the write lock)", { headers: NO_STORE });
    // the autocommit statement returned: the row is committed and reads back as written
    if (Number(written.rows[0]?.checked_at) !== now) throw new Error("health write did not read back");
    return new Response("OK", { headers: NO_STORE });
  } catch (error) {
    console.error("health check failed", error);
    return new Response("Database unavailable", { status: 503, headers: NO_STORE });
  }
}

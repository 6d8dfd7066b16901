import { getClient } from "~/utils/db.server";

// Fly's health check: 200 only when a write commits (a read-only or broken database is not healthy).
export async function loader() {
  try {
    const client = await getClient();
    const now = Date.now();
    const written = await client.execute({
      sql: `INSERT INTO health_checks (id, checked_at) VALUES (1, ?1)
            ON CONFLICT(id) DO UPDATE SET checked_at = excluded.checked_at
            RETURNING checked_at`,
      args: [now],
    });
    // the autocommit statement returned: the row is committed and reads back as written
    if (Number(written.rows[0]?.checked_at) !== now) throw new Error("health write did not read back");
    return new Response("OK", { headers: { "cache-control": "no-store" } });
  } catch (error) {
    console.error("health check failed", error);
    return new Response("Database unavailable", { status: 503, headers: { "cache-control": "no-store" } });
  }
}

import { getClient } from "~/utils/db.server";

// Fly's health check: 200 when the database answers.
export async function loader() {
  try {
    const client = await getClient();
    await client.execute("SELECT 1");
    return new Response("OK", { headers: { "cache-control": "no-store" } });
  } catch (error) {
    console.error("health check failed", error);
    return new Response("Database unavailable", { status: 503 });
  }
}

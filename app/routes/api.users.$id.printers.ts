// GET /api/users/{id}/printers: an owner's printers, as public as the marketplace listing itself.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema";
import { listOwnerPrinters } from "~/services/printer-search.server";
import { apiError, idParam } from "~/utils/api.server";
import { getDb } from "~/utils/db.server";
import { getSessionUser } from "~/utils/session.server";

export async function loader({ params, request }: LoaderFunctionArgs) {
  const id = idParam(params.id);
  const db = await getDb();
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, id)).limit(1);
  if (!user) throw apiError(404, "User not found");
  const viewer = await getSessionUser(request);
  return Response.json(await listOwnerPrinters(id, { viewerId: viewer?.id ?? null }));
}

// GET /api/users/{id}/printers: an owner's printers, as public as the marketplace listing itself.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema";
import { AppError } from "~/domain/app-error";
import { listOwnerPrinters } from "~/services/printers/search.server";
import { idParam } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";
import { getDb } from "~/utils/db.server";
import { getSessionUser } from "~/utils/session.server";

export async function loader({ params, request }: LoaderFunctionArgs) {
  return withApiErrors(async () => {
    const id = idParam(params.id);
    const db = await getDb();
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, id)).limit(1);
    if (!user) throw new AppError("not_found", "User not found");
    const viewer = await getSessionUser(request);
    return Response.json(await listOwnerPrinters(id, { viewerId: viewer?.id ?? null }));
  });
}

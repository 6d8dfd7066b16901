import type { LoaderFunctionArgs } from "@remix-run/node";
import { getSiteStats } from "~/services/stats.server";
import { apiError } from "~/utils/api.server";
import { getSessionUser } from "~/utils/session.server";

// GET /api/stats: the four site statistics as JSON.
export async function loader({ request }: LoaderFunctionArgs) {
  try {
    const user = await getSessionUser(request);
    const stats = await getSiteStats({ zipCode: user?.zipCode });
    // printersNearby depends on the signed-in user's ZIP, so no shared cache may keep it
    return Response.json(stats, { headers: { "cache-control": "private, max-age=60" } });
  } catch (error) {
    console.error("site stats failed", error);
    return apiError(500, "Could not load the site statistics. Please try again later.");
  }
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { recentCampaigns } from "~/services/newsletter.server";
import { requireApiAdmin } from "~/utils/api.server";

// GET /api/admin/newsletter/campaigns: the latest 5 campaigns.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiAdmin(request);
  return Response.json(await recentCampaigns(5));
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { segmentCounts } from "~/services/newsletter.server";
import { requireApiAdmin } from "~/utils/api.server";

// GET /api/admin/newsletter/stats: confirmed subscribers per segment.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiAdmin(request);
  return Response.json(await segmentCounts());
}

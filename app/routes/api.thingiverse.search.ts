import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiError } from "~/utils/api.server";
import { catalogueListingAnswer } from "./catalogue-api.server";

// GET /api/thingiverse/search?q=&type=&page=: matching catalogue models, from our table after a refresh.
export async function loader({ request }: LoaderFunctionArgs) {
  const q = (new URL(request.url).searchParams.get("q") ?? "").trim();
  if (!q) return apiError(400, "q (the search term) is required.");
  if (q.length > 100) return apiError(400, "q is at most 100 characters.");
  return catalogueListingAnswer(request, q);
}

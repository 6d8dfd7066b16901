import type { LoaderFunctionArgs } from "@remix-run/node";
import { catalogueListingAnswer } from "./catalogue-api.server";

// GET /api/thingiverse/browse?type=newest|popular|featured&page=: catalogue models from our table,
// refreshed from Thingiverse first when a token is configured and it answers in time.
export async function loader({ request }: LoaderFunctionArgs) {
  return catalogueListingAnswer(request);
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { BROWSE_TYPES, syncCatalogueListing, type BrowseType } from "~/services/catalogue-sync.server";
import { apiCatalogueModel, listCatalogueModels, MODEL_PAGE_SIZE, parseModelId } from "~/services/models.server";
import { apiError } from "~/utils/api.server";

// GET /api/thingiverse/browse?type=newest|popular|featured&page=: catalogue models from our table,
// refreshed from Thingiverse first when a token is configured and it answers in time.
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const type = params.get("type") ?? "featured";
  if (!(BROWSE_TYPES as readonly string[]).includes(type)) return apiError(400, "type must be newest, popular or featured.");
  const rawPage = params.get("page");
  const page = rawPage === null ? 1 : parseModelId(rawPage);
  if (!page) return apiError(400, "page must be a positive whole number.");
  const sync = await syncCatalogueListing({ type: type as BrowseType, page, perPage: MODEL_PAGE_SIZE }, { request });
  const result = await listCatalogueModels({ sort: type as BrowseType, page });
  return Response.json(result.models.map(apiCatalogueModel), {
    headers: { "X-Total-Count": String(result.total), "X-Catalogue-Sync": sync },
  });
}

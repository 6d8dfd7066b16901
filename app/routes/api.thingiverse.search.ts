import type { LoaderFunctionArgs } from "@remix-run/node";
import { BROWSE_TYPES, syncCatalogueListing, type BrowseType } from "~/services/catalogue-sync.server";
import { apiCatalogueModel, listCatalogueModels, MODEL_PAGE_SIZE, parseModelId } from "~/services/models.server";
import { apiError } from "~/utils/api.server";

// GET /api/thingiverse/search?q=&type=&page=: matching catalogue models, from our table after a refresh.
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const q = (params.get("q") ?? "").trim();
  if (!q) return apiError(400, "q (the search term) is required.");
  if (q.length > 100) return apiError(400, "q is at most 100 characters.");
  const type = params.get("type") ?? "featured";
  if (!(BROWSE_TYPES as readonly string[]).includes(type)) return apiError(400, "type must be newest, popular or featured.");
  const rawPage = params.get("page");
  const page = rawPage === null ? 1 : parseModelId(rawPage);
  if (!page) return apiError(400, "page must be a positive whole number.");
  const sync = await syncCatalogueListing({ type: type as BrowseType, q, page, perPage: MODEL_PAGE_SIZE }, { request });
  const result = await listCatalogueModels({ q, sort: type as BrowseType, page });
  return Response.json(result.models.map(apiCatalogueModel), {
    headers: { "X-Total-Count": String(result.total), "X-Catalogue-Sync": sync },
  });
}

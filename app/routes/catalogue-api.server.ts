// GET /api/thingiverse/browse and /search share this: catalogue models from our table, refreshed
// from the site first when a token is configured and it answers in time.
import { AppError } from "~/domain/app-error";
import { MODEL_PAGE_SIZE } from "~/domain/models";
import { BROWSE_TYPES, syncCatalogueListing, type BrowseType } from "~/services/catalogue/sync.server";
import { apiCatalogueModel } from "~/services/models/api-shapes";
import { listCatalogueModels } from "~/services/models/lists.server";
import { withApiErrors } from "~/utils/app-error.server";
import { parseId } from "~/utils/misc";
import { visitorOf } from "~/utils/session.server";

export function catalogueListingAnswer(request: Request, q?: string): Promise<Response> {
  return withApiErrors(async () => {
    const params = new URL(request.url).searchParams;
    const type = params.get("type") ?? "featured";
    if (!(BROWSE_TYPES as readonly string[]).includes(type))
      throw new AppError("invalid", "type must be newest, popular or featured.");
    const rawPage = params.get("page");
    const page = rawPage === null ? 1 : parseId(rawPage);
    if (!page) throw new AppError("invalid", "page must be a positive whole number.");
    const sort = type as BrowseType;
    const sync = await syncCatalogueListing(
      { type: sort, q, page, perPage: MODEL_PAGE_SIZE },
      { visitor: await visitorOf(request) },
    );
    const result = await listCatalogueModels({ q, sort, page });
    return Response.json(result.models.map(apiCatalogueModel), {
      headers: { "X-Total-Count": String(result.total), "X-Catalogue-Sync": sync },
    });
  });
}

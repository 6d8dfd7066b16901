import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { AppError } from "~/domain/app-error";
import { parseModelSort } from "~/domain/models";
import { apiLibrarySummary } from "~/services/models/api-shapes";
import { listLibraryModels } from "~/services/models/lists.server";
import { methodNotAllowed, requireApiUser } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";
import { parseId } from "~/utils/misc";
import { modelUploadApiAnswer } from "./upload-model.server";

// GET /api/models?categoryId=&search=&sortBy=&page=: the library list (a bare JSON array).
export async function loader({ request }: LoaderFunctionArgs) {
  return withApiErrors(() => libraryList(request));
}

async function libraryList(request: Request) {
  const params = new URL(request.url).searchParams;
  const rawCategory = params.get("categoryId");
  const categoryId = rawCategory && rawCategory !== "all" ? parseId(rawCategory) : null;
  if (rawCategory && rawCategory !== "all" && !categoryId) throw new AppError("invalid", "categoryId must be a category id.");
  const sortBy = params.get("sortBy");
  if (sortBy && parseModelSort(sortBy) !== sortBy) throw new AppError("invalid", "sortBy must be newest, popular or featured.");
  const page = await listLibraryModels({
    q: params.get("search"),
    sort: parseModelSort(sortBy),
    categoryId,
    page: parseId(params.get("page")) ?? 1,
  });
  return Response.json(page.models.map(apiLibrarySummary), {
    headers: { "X-Total-Count": String(page.total), "X-Page-Count": String(page.pageCount) },
  });
}

// POST /api/models: the documented upload payload as JSON (no files; those go through /upload-model) → 201 { id }.
// Shares the page's flow (routes/upload-model.server.ts).
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  return withApiErrors(async () => modelUploadApiAnswer(request, await requireApiUser(request)));
}

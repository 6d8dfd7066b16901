import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { AppError } from "~/domain/app-error";
import { CATEGORY_MESSAGE, ModelPayloadSchema } from "~/domain/model-upload";
import { parseModelSort } from "~/domain/models";
import { hitModelUploadLimit, modelUploadLimitMessage } from "~/services/design-quotas.server";
import { apiLibrarySummary } from "~/services/models/api-shapes";
import { createLibraryModel } from "~/services/models/library.server";
import { categoryExists, listLibraryModels } from "~/services/models/lists.server";
import { apiError, readJson, requireApiUser } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";
import { parseId } from "~/utils/misc";

// GET /api/models?categoryId=&search=&sortBy=&page=: the library list (an array, as document 000 reads it).
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

// POST /api/models: document 000's upload payload (no files; those go through /upload-model) → 201 { id }.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(400, "Use POST to add a model.");
  return withApiErrors(() => addModel(request));
}

async function addModel(request: Request) {
  const user = await requireApiUser(request);
  const limit = await hitModelUploadLimit(user.id);
  if (!limit.allowed) {
    throw new AppError("rate_limited", modelUploadLimitMessage(limit.retryAfterSeconds), {
      retryAfterSeconds: limit.retryAfterSeconds,
    });
  }
  const parsed = ModelPayloadSchema.safeParse(await readJson(request));
  if (!parsed.success) throw new AppError("invalid", parsed.error.issues[0]?.message ?? "Invalid model.");
  const value = parsed.data;
  if (!(await categoryExists(value.categoryId))) throw new AppError("invalid", CATEGORY_MESSAGE, { field: "categoryId" });
  const id = await createLibraryModel({
    creatorId: user.id,
    name: value.name,
    description: value.description,
    categoryId: value.categoryId,
    difficulty: value.difficulty,
    printTimeMinutes: value.printTime,
    filamentWeightGrams: value.filamentWeight,
    supportRequired: value.supportRequired,
    license: value.license,
    tags: value.tags,
  });
  return Response.json({ id }, { status: 201, headers: { Location: `/api/models/library/${id}` } });
}

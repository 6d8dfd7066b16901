import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { ModelPayloadSchema } from "~/components/model-upload-fields";
import { hitModelUploadLimit, modelUploadLimitMessage } from "~/services/design-quotas.server";
import {
  apiLibrarySummary,
  categoryExists,
  createLibraryModel,
  listLibraryModels,
  parseModelId,
  parseModelSort,
} from "~/services/models.server";
import { apiError, readJson, requireApiUser } from "~/utils/api.server";

// GET /api/models?categoryId=&search=&sortBy=&page=: the library list (an array, as document 000 reads it).
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const rawCategory = params.get("categoryId");
  const categoryId = rawCategory && rawCategory !== "all" ? parseModelId(rawCategory) : null;
  if (rawCategory && rawCategory !== "all" && !categoryId) return apiError(400, "categoryId must be a category id.");
  const sortBy = params.get("sortBy");
  if (sortBy && parseModelSort(sortBy) !== sortBy) return apiError(400, "sortBy must be newest, popular or featured.");
  const page = await listLibraryModels({
    q: params.get("search"),
    sort: parseModelSort(sortBy),
    categoryId,
    page: parseModelId(params.get("page")) ?? 1,
  });
  return Response.json(page.models.map(apiLibrarySummary), {
    headers: { "X-Total-Count": String(page.total), "X-Page-Count": String(page.pageCount) },
  });
}

// POST /api/models: document 000's upload payload (no files; those go through /upload-model) → 201 { id }.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(400, "Use POST to add a model.");
  const user = await requireApiUser(request);
  const limit = await hitModelUploadLimit(user.id);
  if (!limit.allowed) {
    return apiError(429, modelUploadLimitMessage(limit.retryAfterSeconds), { "Retry-After": String(limit.retryAfterSeconds) });
  }
  const parsed = ModelPayloadSchema.safeParse(await readJson(request));
  if (!parsed.success) return apiError(400, parsed.error.issues[0]?.message ?? "Invalid model.");
  const value = parsed.data;
  if (!(await categoryExists(value.categoryId))) return apiError(400, "Please select a category");
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

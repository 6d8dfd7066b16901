import { listCategories } from "~/services/models.server";

// GET /api/categories: [{ id, name }]
export async function loader() {
  return Response.json(await listCategories());
}

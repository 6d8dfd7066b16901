import { listCategories } from "~/services/models/lists.server";
import { withApiErrors } from "~/utils/app-error.server";

// GET /api/categories: [{ id, name }]
export async function loader() {
  return withApiErrors(async () => Response.json(await listCategories()));
}

// GET /api/print-jobs/{id}/download: the design file, for the owner of the job's printer only;
// a refusal is JSON {message} (404 / 403).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { withApiErrors } from "~/utils/app-error.server";
import { requireApiUser } from "~/utils/api.server";
import { parseId } from "~/utils/misc";
import { designFileResponse } from "./orders.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  return withApiErrors(() => designFileResponse(user.id, parseId(params.id)));
}

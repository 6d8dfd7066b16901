// GET /order/{id}/download: the order page's Download 3D File. The owner of the job's printer gets
// the file; any refusal goes back to the order page with the Download Failed toast.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { isAppError, toastOf } from "~/utils/app-error.server";
import { requireIdParam } from "~/utils/misc";
import { requireUser } from "~/utils/session.server";
import { redirectWithToast } from "~/utils/toast.server";
import { designFileResponse, DOWNLOAD_FAILED } from "./orders.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = requireIdParam(params.id, DOWNLOAD_FAILED);
  try {
    return await designFileResponse(user.id, id);
  } catch (error) {
    if (!isAppError(error)) throw error;
    return redirectWithToast(`/order/${id}`, toastOf(error, "Download Failed"));
  }
}

// /drafts/{id}/file: the owner's own design file, which the upload page re-reads in the browser for the 3D view.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getOwnJobFile } from "~/services/designs/drafts.server";
import { withApiErrors } from "~/utils/app-error.server";
import { getSessionUser } from "~/utils/session.server";

const notFound = () => new Response("Not Found", { status: 404, headers: { "content-type": "text/plain" } });

// a bucket that is down answers 503 with Retry-After, as the other stored-file routes do
export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApiErrors(() => fileAnswer(request, params.id));
}

async function fileAnswer(request: Request, id: string | undefined) {
  const found = await getOwnJobFile(await getSessionUser(request), id, "fileKey");
  if (!found) return notFound();
  const { job, file } = found;
  // the stored name is the customer's; quotes and non-ASCII are dropped from the header form of it
  const asciiName = job.fileName.replace(/[^\x20-\x7e]|"/g, "_");
  return new Response(file.stream(), {
    headers: {
      "content-type": "application/octet-stream",
      "content-length": String(file.size),
      "content-disposition": `attachment; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(job.fileName)}`,
      "cache-control": "private, no-store",
    },
  });
}

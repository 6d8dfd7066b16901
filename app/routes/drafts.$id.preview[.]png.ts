// /drafts/{id}/preview.png: the server-rendered picture of a design, for its owner only (404 for anyone else).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getOwnJobFile } from "~/services/designs/drafts.server";
import { withApiErrors } from "~/utils/app-error.server";
import { getSessionUser } from "~/utils/session.server";

const notFound = () => new Response("Not Found", { status: 404, headers: { "content-type": "text/plain" } });

// a bucket that is down answers 503 with Retry-After, as the other stored-file routes do
export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApiErrors(() => preview(request, params.id));
}

async function preview(request: Request, id: string | undefined) {
  const found = await getOwnJobFile(await getSessionUser(request), id, "previewKey");
  if (!found) return notFound();
  return new Response(found.file.stream(), {
    headers: {
      "content-type": "image/png",
      "content-length": String(found.file.size),
      // private: the picture belongs to one signed-in customer
      "cache-control": "private, max-age=300",
    },
  });
}

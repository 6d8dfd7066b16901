// /drafts/{id}/preview.png: the server-rendered picture of a design, for its owner only (404 for anyone else).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getOwnJob } from "~/services/designs.server";
import { getStorage } from "~/services/storage.server";
import { getSessionUser } from "~/utils/session.server";

const notFound = () => new Response("Not Found", { status: 404, headers: { "content-type": "text/plain" } });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await getSessionUser(request);
  const id = Number(params.id);
  if (!user || !Number.isSafeInteger(id) || id <= 0) return notFound();
  const job = await getOwnJob(user.id, id);
  if (!job?.previewKey) return notFound();
  const file = await getStorage().get(job.previewKey);
  if (!file) return notFound();
  return new Response(file.stream(), {
    headers: {
      "content-type": "image/png",
      "content-length": String(file.size),
      // private: the picture belongs to one signed-in customer
      "cache-control": "private, max-age=300",
    },
  });
}

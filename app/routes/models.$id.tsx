import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { parseModelId } from "~/services/models.server";

// /models/{id}: document 000's short address of a library model (its source defaults to library).
export function loader({ params }: LoaderFunctionArgs) {
  const id = parseModelId(params.id);
  if (!id) throw new Response("Not Found", { status: 404 });
  return redirect(`/models/library/${id}`, 301);
}

export default function LibraryModelShortcut() {
  return null;
}

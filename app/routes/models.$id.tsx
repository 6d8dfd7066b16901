import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requireIdParam } from "~/utils/misc";

// /models/{id}: the short address of a library model (its source defaults to library).
export function loader({ params }: LoaderFunctionArgs) {
  const id = requireIdParam(params.id);
  return redirect(`/models/library/${id}`, 301);
}

export const meta = () => [{ title: "Model | Printnear" }];

export default function LibraryModelShortcut() {
  return null;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

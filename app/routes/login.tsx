import type { LoaderFunctionArgs } from "react-router";
import { redirect } from "react-router";
import { pageUrl } from "~/utils/page-url";

// /login is an old address of the sign-in screen.
export function loader({ request }: LoaderFunctionArgs) {
  const { search } = pageUrl(request);
  return redirect(`/auth${search}`, 301);
}

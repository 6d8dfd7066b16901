import { redirect } from "@remix-run/node";

// /my-orders is another address of the dashboard.
export function loader() {
  return redirect("/dashboard");
}

import { redirect } from "@remix-run/node";

// Document 001: /my-orders is another address of the dashboard.
export function loader() {
  return redirect("/dashboard");
}

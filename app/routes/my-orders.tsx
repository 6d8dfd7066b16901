import { redirect } from "react-router";

// /my-orders is another address of the dashboard.
export function loader() {
  return redirect("/dashboard");
}

import type { ActionFunctionArgs } from "react-router";
import { redirect } from "react-router";
import { destroyUserSession } from "~/utils/session.server";

export async function action({ request }: ActionFunctionArgs) {
  return redirect("/", { headers: { "set-cookie": await destroyUserSession(request) } });
}

export function loader() {
  return redirect("/");
}

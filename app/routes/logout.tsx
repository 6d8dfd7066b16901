import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { destroyUserSession } from "~/utils/session.server";

export async function action({ request }: ActionFunctionArgs) {
  return redirect("/", { headers: { "set-cookie": await destroyUserSession(request) } });
}

export function loader() {
  return redirect("/");
}

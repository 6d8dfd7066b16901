// POST /api/upload-design: the same multipart form, kept as a draft on its way to printer choice.
import type { ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed, requireApiUser } from "~/utils/api.server";
import { designApiAnswer } from "./upload/upload.server";

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request);
  return designApiAnswer(request, { user, intent: "submit" });
}

// JSON API helpers: errors are { "message": "..." } with the status that says why.
import type { User } from "../../db/schema";
import { parseId } from "./misc";
import { getSessionUser } from "./session.server";

export function apiError(
  status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 503,
  message: string,
  headers?: HeadersInit,
) {
  return Response.json({ message }, { status, headers });
}

/** API calls: the signed-in user, or a thrown 401. */
export async function requireApiUser(request: Request): Promise<User> {
  const user = await getSessionUser(request);
  if (!user) throw apiError(401, "Not authenticated");
  return user;
}

export async function requireApiAdmin(request: Request): Promise<User> {
  const user = await requireApiUser(request);
  if (!user.isAdmin) throw apiError(403, "Admin access required");
  return user;
}

/** The body of an API call as text, read up to a size limit, or a thrown 413. */
export async function readText(request: Request, maxBytes: number): Promise<string> {
  const reader = request.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      void reader.cancel();
      throw apiError(413, "Request body too large.");
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** The JSON object body of an API call, read up to a size limit, or a thrown 400/413. */
export async function readJson(request: Request, maxBytes = 256 * 1024): Promise<Record<string, unknown>> {
  const text = await readText(request, maxBytes);
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    throw apiError(400, "The request body is not valid JSON.");
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) throw apiError(400, "Send a JSON object.");
  return body as Record<string, unknown>;
}

/** A route param that must be an id (read by the one id parser, parseId), or a thrown JSON 404. */
export function idParam(value: string | undefined): number {
  const id = parseId(value);
  if (id === null) throw apiError(404, "Not found");
  return id;
}

/** The fields of a user that the API and pages may show (never the password hash). */
export function publicUser(user: User) {
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    profileImageUrl: user.profileImageUrl,
    userType: user.userType,
    zipCode: user.zipCode,
    stripeAccountId: user.stripeAccountId,
    isAdmin: user.isAdmin,
  };
}
/** 405 for a method the API call does not take, with the ones it does in Allow: the one method-not-allowed answer. */
export function methodNotAllowed(allow: string) {
  return Response.json({ message: "Method not allowed" }, { status: 405, headers: { allow } });
}

// The JSON sign-in / sign-up calls share the page's account functions and answer with a session cookie.
import type { User } from "../../db/schema";
import { apiError, publicUser } from "./api.server";
import { AuthFailure } from "./auth.server";
import { createUserSession } from "./session.server";

export async function answerWithSession(request: Request, authenticate: () => Promise<User>, status = 200) {
  try {
    const user = await authenticate();
    return Response.json(publicUser(user), { status, headers: { "set-cookie": await createUserSession(user.id) } });
  } catch (error) {
    if (error instanceof AuthFailure) {
      return Response.json(
        { message: error.message, errors: error.fieldErrors },
        {
          status: error.status,
          headers: error.retryAfterSeconds ? { "Retry-After": String(error.retryAfterSeconds) } : undefined,
        },
      );
    }
    throw error;
  }
}

export function methodNotAllowed() {
  return apiError(400, "Use POST for this call.");
}

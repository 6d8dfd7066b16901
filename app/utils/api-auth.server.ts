// The JSON sign-in / sign-up calls share the page's account functions and answer with a session cookie.
import type { User } from "../../db/schema";
import { AuthFailure } from "~/domain/auth-failure";
import { publicUser } from "./api.server";
import { httpStatusOf, retryHeaders } from "./app-error.server";
import { createUserSession } from "./session.server";

export async function answerWithSession(request: Request, authenticate: () => Promise<User>, status = 200) {
  try {
    const user = await authenticate();
    return Response.json(publicUser(user), { status, headers: { "set-cookie": await createUserSession(user.id) } });
  } catch (error) {
    if (error instanceof AuthFailure) {
      // the one mapper's status and Retry-After, plus the messages per field
      return Response.json(
        { message: error.message, errors: error.fieldErrors },
        { status: httpStatusOf(error), headers: retryHeaders(error) },
      );
    }
    throw error;
  }
}

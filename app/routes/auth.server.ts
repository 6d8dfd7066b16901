// The sign-in page's remix-auth form strategies: "password" signs in, "register" signs up, each through the
// account service with the client's address.
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import type { User } from "../../db/schema";
import { loginWithPassword, registerAccount } from "~/services/accounts/sign-in.server";
import { clientIp } from "~/utils/rate-limit.server";

export const authenticator = new Authenticator<User>();
authenticator.use(
  new FormStrategy(async ({ form, request }) =>
    loginWithPassword({ email: form.get("email"), password: form.get("password") }, clientIp(request)),
  ),
  "password",
);
authenticator.use(
  new FormStrategy(async ({ form, request }) =>
    registerAccount(
      {
        username: form.get("username"),
        email: form.get("email"),
        password: form.get("password"),
        newsletterSubscribed: form.get("newsletterSubscribed"),
      },
      clientIp(request),
    ),
  ),
  "register",
);

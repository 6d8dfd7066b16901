import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useSearchParams } from "@remix-run/react";
import { HoneypotInputs } from "remix-utils/honeypot/react";
import { FailureToast } from "~/components/toaster";
import { httpStatusOf, retryHeaders } from "~/utils/app-error.server";
import { AuthFailure } from "~/domain/auth-failure";
import { authenticator } from "./auth.server";
import { checkHoneypot } from "~/utils/honeypot.server";
import { createUserSession, getSessionUser, safeRedirect } from "~/utils/session.server";
import { combineHeaders, createToastHeader } from "~/utils/toast.server";
import { useIsPending } from "~/utils/misc-react";

// This page is one of the first a visitor meets: its JavaScript budget is tight, so the browser
// checks with native constraints (required, type=email, minLength) and the server's rules decide.
export const meta: MetaFunction = () => [{ title: "Sign in | Printnear" }];

function tabFrom(url: URL) {
  const tab = url.searchParams.get("tab");
  return tab === "register" || tab === "signup" ? "signup" : "signin";
}

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (await getSessionUser(request)) throw redirect(safeRedirect(url.searchParams.get("redirectTo")));
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  // the body is read once (bounded by the server's form limit); the strategy gets the parsed form
  const form = await request.formData();
  checkHoneypot(form);
  const intent = form.get("intent") === "signup" ? "signup" : "signin";
  const redirectTo = safeRedirect(form.get("redirectTo"));
  try {
    const user = await authenticator.authenticate(intent === "signup" ? "register" : "password", withForm(request, form));
    const headers = combineHeaders(
      { "set-cookie": await createUserSession(user.id) },
      {
        "set-cookie": await createToastHeader(
          intent === "signup"
            ? { title: "Account Created!", description: "Welcome to Printnear. You can now start using the platform." }
            : { title: "Welcome back!", description: "You have been successfully logged in." },
        ),
      },
    );
    return redirect(redirectTo, { headers });
  } catch (error) {
    if (!(error instanceof AuthFailure)) throw error;
    const fields = { email: String(form.get("email") ?? ""), username: String(form.get("username") ?? "") };
    // shown by this page from the action's answer: a flashed cookie would only appear on the next page
    return data(
      { intent, title: error.title, message: error.message, fieldErrors: error.fieldErrors, fields },
      { status: httpStatusOf(error), headers: retryHeaders(error) },
    );
  }
}

/** The same request (headers, client address) carrying an already-read form as its body. */
function withForm(request: Request, form: FormData) {
  const headers = new Headers(request.headers);
  headers.delete("content-type");
  headers.delete("content-length");
  return new Request(request.url, { method: request.method, headers, body: form });
}

export default function AuthPage() {
  const [searchParams] = useSearchParams();
  const actionData = useActionData<typeof action>();
  const signingIn = useIsPending({ state: "submitting", intent: "signin" });
  const signingUp = useIsPending({ state: "submitting", intent: "signup" });
  const tab = actionData?.intent ?? tabFrom(new URL(`http://x/?${searchParams}`));
  const redirectTo = searchParams.get("redirectTo") ?? "";
  const tabLink = (name: "signin" | "signup") => {
    const next = new URLSearchParams(searchParams);
    if (name === "signup") next.set("tab", "register");
    else next.delete("tab");
    const query = next.toString();
    return query ? `?${query}` : "/auth";
  };

  const kept = actionData?.fields;
  const serverError = (field: string) => actionData?.fieldErrors?.[field]?.[0];
  const tabClass = (active: boolean) =>
    `flex-1 rounded-md px-3 py-2 text-center text-sm font-medium ${active ? "bg-white shadow text-slate-900" : "text-slate-600 hover:text-slate-900"}`;

  return (
    <div className="container-page flex justify-center py-12">
      <div className="w-full max-w-md">
        <h1 className="text-center text-2xl font-bold">{tab === "signup" ? "Create your account" : "Welcome back"}</h1>
        {redirectTo ? <p className="mt-2 text-center text-sm text-slate-600">Please sign in to continue.</p> : null}
        <div className="mt-6 flex gap-1 rounded-lg bg-slate-100 p-1" role="tablist">
          <Link
            to={tabLink("signin")}
            role="tab"
            aria-selected={tab === "signin"}
            className={tabClass(tab === "signin")}
            preventScrollReset
            replace
          >
            Sign In
          </Link>
          <Link
            to={tabLink("signup")}
            role="tab"
            aria-selected={tab === "signup"}
            className={tabClass(tab === "signup")}
            preventScrollReset
            replace
          >
            Sign Up
          </Link>
        </div>
        {actionData ? <FailureToast title={actionData.title} description={actionData.message} /> : null}
        {tab === "signin" ? (
          <Form method="post" className="card mt-4 space-y-4 p-6">
            <HoneypotInputs />
            <input type="hidden" name="intent" value="signin" />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <div>
              <label className="label" htmlFor="signin-email">
                Email
              </label>
              <input
                className="input"
                id="signin-email"
                name="email"
                type="email"
                required
                autoComplete="email"
                defaultValue={kept?.email}
                aria-invalid={serverError("email") ? true : undefined}
              />
              <p className="field-error">{serverError("email")}</p>
            </div>
            <div>
              <label className="label" htmlFor="signin-password">
                Password
              </label>
              <input
                className="input"
                id="signin-password"
                name="password"
                type="password"
                required
                autoComplete="current-password"
              />
            </div>
            <button className="btn-primary w-full" disabled={signingIn}>
              {signingIn ? "Signing In..." : "Sign In"}
            </button>
          </Form>
        ) : (
          <Form method="post" className="card mt-4 space-y-4 p-6">
            <HoneypotInputs />
            <input type="hidden" name="intent" value="signup" />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <div>
              <label className="label" htmlFor="signup-username">
                Username
              </label>
              <input
                className="input"
                id="signup-username"
                name="username"
                type="text"
                required
                minLength={3}
                maxLength={30}
                pattern="[A-Za-z0-9_.\-]+"
                title="Letters, numbers, dots, dashes and underscores"
                autoComplete="username"
                defaultValue={kept?.username}
                aria-invalid={serverError("username") ? true : undefined}
              />
              <p className="field-error">{serverError("username")}</p>
            </div>
            <div>
              <label className="label" htmlFor="signup-email">
                Email
              </label>
              <input
                className="input"
                id="signup-email"
                name="email"
                type="email"
                required
                maxLength={254}
                autoComplete="email"
                defaultValue={kept?.email}
                aria-invalid={serverError("email") ? true : undefined}
              />
              <p className="field-error">{serverError("email")}</p>
            </div>
            <div>
              <label className="label" htmlFor="signup-password">
                Password
              </label>
              <input
                className="input"
                id="signup-password"
                name="password"
                type="password"
                required
                minLength={8}
                maxLength={128}
                autoComplete="new-password"
                aria-invalid={serverError("password") ? true : undefined}
              />
              <p className="mt-1 text-xs text-slate-500">At least 8 characters.</p>
              <p className="field-error">{serverError("password")}</p>
            </div>
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input type="checkbox" name="newsletterSubscribed" className="h-4 w-4 rounded border-slate-300" />
              Send me the Printnear newsletter
            </label>
            <button className="btn-primary w-full" disabled={signingUp}>
              {signingUp ? "Creating Account..." : "Create Account"}
            </button>
          </Form>
        )}
      </div>
    </div>
  );
}

import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useSearchParams } from "@remix-run/react";
import { Form } from "~/components/form";
import { Link } from "~/components/link";
import { HoneypotInputs } from "remix-utils/honeypot/react";
import { parseWithZod } from "@conform-to/zod";
import { z } from "zod";
import { CheckboxField, Field } from "~/components/forms";
import { FailureToast } from "~/components/toaster";
import { formStatusOf, retryHeaders } from "~/utils/app-error.server";
import { AuthFailure, authFormErrors, authToastOf } from "~/domain/auth-failure";
import { authenticator } from "./auth.server";
import { checkHoneypot } from "~/utils/honeypot.server";
import { createUserSession, getSessionUser, safeRedirect } from "~/utils/session.server";
import { combineHeaders, createToastHeader } from "~/utils/toast.server";
import { useIsPending } from "~/utils/misc-react";

// This page is one of the first a visitor meets: its JavaScript budget is tight, so the browser
// checks with native constraints (required, type=email, minLength) and the server's rules decide.
export const meta: MetaFunction = () => [{ title: "Sign in | Printnear" }];

// the account service judges the fields; the schema only carries the post into conform's reply
const AuthFormSchema = z.object({ intent: z.string().optional() });

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
    const submission = parseWithZod(form, { schema: AuthFormSchema });
    // shown by this page from the action's answer: a flashed cookie would only appear on the next page
    const result = submission.reply({
      formErrors: authFormErrors(error),
      fieldErrors: error.fieldErrors,
      hideFields: ["password"],
    });
    return data({ result }, { status: formStatusOf(error), headers: retryHeaders(error) });
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
  const result = actionData?.result;
  const tab = result
    ? result.initialValue?.intent === "signup"
      ? "signup"
      : "signin"
    : tabFrom(new URL(`http://x/?${searchParams}`));
  const redirectTo = searchParams.get("redirectTo") ?? "";
  const tabLink = (name: "signin" | "signup") => {
    const next = new URLSearchParams(searchParams);
    if (name === "signup") next.set("tab", "register");
    else next.delete("tab");
    const query = next.toString();
    return query ? `?${query}` : "/auth";
  };

  const kept = (name: string) => {
    const value = result?.initialValue?.[name];
    return typeof value === "string" ? value : undefined;
  };
  const errors = result?.error ?? {};
  const toast = authToastOf(errors[""]);
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
        {toast ? <FailureToast title={toast.title} description={toast.description} /> : null}
        {tab === "signin" ? (
          <Form method="post" className="card mt-4 space-y-4 p-6">
            <HoneypotInputs />
            <input type="hidden" name="intent" value="signin" />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <Field
              labelProps={{ children: "Email" }}
              inputProps={{
                id: "signin-email",
                name: "email",
                type: "email",
                required: true,
                autoComplete: "email",
                defaultValue: kept("email"),
              }}
              errors={errors.email}
            />
            <Field
              labelProps={{ children: "Password" }}
              inputProps={{
                id: "signin-password",
                name: "password",
                type: "password",
                required: true,
                autoComplete: "current-password",
              }}
              errors={errors.password}
            />
            <button className="btn-primary w-full" disabled={signingIn}>
              {signingIn ? "Signing In..." : "Sign In"}
            </button>
          </Form>
        ) : (
          <Form method="post" className="card mt-4 space-y-4 p-6">
            <HoneypotInputs />
            <input type="hidden" name="intent" value="signup" />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <Field
              labelProps={{ children: "Username" }}
              inputProps={{
                id: "signup-username",
                name: "username",
                type: "text",
                required: true,
                minLength: 3,
                maxLength: 30,
                pattern: "[A-Za-z0-9_.\\-]+",
                title: "Letters, numbers, dots, dashes and underscores",
                autoComplete: "username",
                defaultValue: kept("username"),
              }}
              errors={errors.username}
            />
            <Field
              labelProps={{ children: "Email" }}
              inputProps={{
                id: "signup-email",
                name: "email",
                type: "email",
                required: true,
                maxLength: 254,
                autoComplete: "email",
                defaultValue: kept("email"),
              }}
              errors={errors.email}
            />
            <Field
              labelProps={{ children: "Password" }}
              inputProps={{
                id: "signup-password",
                name: "password",
                type: "password",
                required: true,
                minLength: 8,
                maxLength: 128,
                autoComplete: "new-password",
              }}
              help="At least 8 characters."
              errors={errors.password}
            />
            <CheckboxField
              labelProps={{ children: "Send me the Printnear newsletter" }}
              inputProps={{ name: "newsletterSubscribed" }}
              errors={errors.newsletterSubscribed}
            />
            <button className="btn-primary w-full" disabled={signingUp}>
              {signingUp ? "Creating Account..." : "Create Account"}
            </button>
          </Form>
        )}
      </div>
    </div>
  );
}

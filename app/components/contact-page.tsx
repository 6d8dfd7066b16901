import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useActionData, useLoaderData, useLocation, useRouteLoaderData } from "@remix-run/react";
import { Form } from "./form";
import { Link } from "./link";
import { HoneypotInputs } from "remix-utils/honeypot/react";
import { PLATFORM_FEE_MINIMUM_CENTS, PLATFORM_FEE_PERCENT } from "~/domain/pricing";
import { formatCents } from "~/domain/money";
import type { RootData } from "~/domain/signed-in-user";
import { ErrorList, Field, TextareaField } from "./forms";
import { SUPPORT_EMAIL, SUPPORT_HOURS, SUPPORT_PHONE } from "./site-footer";
import { useIsPending } from "~/utils/misc-react";

export interface ContactFields {
  name: string;
  email: string;
  subject: string;
  message: string;
}

export const REPLY_PROMISE = "We reply within 24 hours.";

const QUICK_HELP = [
  {
    title: "What does it cost?",
    text: `Every quote shows the full price upfront. Our platform fee is ${PLATFORM_FEE_PERCENT}% (at least ${formatCents(PLATFORM_FEE_MINIMUM_CENTS)}), already included.`,
    to: "/pricing",
    link: "See pricing",
  },
  {
    title: "Where is my order?",
    text: "Your dashboard lists your orders. Each order's page shows its status and tracking number, lets you cancel until the printer accepts, and is where you message the printer owner.",
    to: "/dashboard",
    link: "Open my orders",
  },
  {
    title: "Own a 3D printer?",
    text: "List it, set your price per gram and earn from jobs in your area.",
    to: "/add-printer",
    link: "List your printer",
  },
];

const RESOURCES = [
  { title: "How it Works", text: "From file to finished print in four steps.", to: "/how-it-works" },
  { title: "FAQ", text: "Quotes, materials, delivery, payments and more.", to: "/faq" },
  { title: "Pricing", text: "Weight tiers and a price calculator.", to: "/pricing" },
  { title: "Terms of Service", text: "The rules for customers and printer owners.", to: "/terms" },
];

/** The required/type/maxLength attributes the route's loader derives from its schema. */
type ContactConstraint = NonNullable<Parameters<typeof useForm<ContactFields>>[0]["constraint"]>;

function ContactForm({
  constraint,
  defaultValue,
  lastResult,
}: {
  constraint: ContactConstraint;
  defaultValue: Partial<ContactFields> | undefined;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const sending = useIsPending({ state: "submitting" });
  // The zod schema stays on the server (it would put the page over its JS budget): the browser
  // checks the constraints it derives, the server's parse has the last word.
  const [form, fields] = useForm<ContactFields>({
    id: "contact",
    lastResult,
    constraint,
    shouldValidate: "onSubmit",
    defaultValue,
  });

  return (
    <Form method="post" {...getFormProps(form)} noValidate={false} className="card space-y-4 p-6 lg:col-span-2">
      <h2 className="text-xl font-semibold">Send us a message</h2>
      <HoneypotInputs />
      {form.errors?.length ? (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          <ErrorList id={form.errorId} errors={form.errors} />
        </div>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          labelProps={{ children: "Name" }}
          inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "name" }}
          errors={fields.name.errors}
        />
        <Field
          labelProps={{ children: "Email" }}
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
          errors={fields.email.errors}
        />
      </div>
      <Field
        labelProps={{ children: "Subject" }}
        inputProps={getInputProps(fields.subject, { type: "text" })}
        errors={fields.subject.errors}
      />
      <TextareaField
        labelProps={{ children: "Message" }}
        textareaProps={{ ...getTextareaProps(fields.message), className: "input min-h-40", rows: 6 }}
        errors={fields.message.errors}
      />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-500">{REPLY_PROMISE}</p>
        <button type="submit" className="btn-primary" disabled={sending}>
          {sending ? "Sending..." : "Send Message"}
        </button>
      </div>
    </Form>
  );
}

/** The page behind both /help and /contact. */
export function ContactPage() {
  const root = useRouteLoaderData<RootData>("root");
  const user = root?.user ?? null;
  const { constraint } = useLoaderData<{ constraint: ContactConstraint }>();
  const lastResult = useActionData<{ result: SubmissionResult<string[]> }>()?.result;
  const location = useLocation();
  const defaultValue = user
    ? { name: [user.firstName, user.lastName].filter(Boolean).join(" ") || user.username, email: user.email }
    : undefined;

  return (
    <div className="container-page py-12">
      <div className="max-w-2xl">
        <h1 className="text-3xl font-bold">Contact &amp; Support</h1>
        <p className="mt-2 text-slate-600">
          Questions about an order, a quote or listing your printer? Send us a message. {REPLY_PROMISE}
        </p>
      </div>

      <div className="mt-8 grid gap-8 lg:grid-cols-3">
        {/* after a send the redirect's new location key starts an empty form; after a refusal it keeps the reply's values */}
        <ContactForm
          key={lastResult ? "retry" : location.key}
          constraint={constraint}
          defaultValue={defaultValue}
          lastResult={lastResult}
        />

        <aside className="space-y-6">
          <section className="card p-6" aria-labelledby="support-details">
            <h2 id="support-details" className="text-lg font-semibold">
              Support
            </h2>
            <dl className="mt-3 space-y-3 text-sm">
              <div>
                <dt className="text-slate-500">Email</dt>
                <dd>
                  <a href={`mailto:${SUPPORT_EMAIL}`} className="font-medium text-brand-700 hover:underline">
                    {SUPPORT_EMAIL}
                  </a>
                </dd>
              </div>
              <div>
                <dt className="text-slate-500">Phone</dt>
                <dd>
                  <a href={`tel:+1${SUPPORT_PHONE.replace(/\D/g, "")}`} className="font-medium text-brand-700 hover:underline">
                    {SUPPORT_PHONE}
                  </a>
                </dd>
              </div>
              <div>
                <dt className="text-slate-500">Hours</dt>
                <dd className="font-medium">{SUPPORT_HOURS}</dd>
              </div>
            </dl>
          </section>
          <section className="card p-6" aria-labelledby="quick-help">
            <h2 id="quick-help" className="text-lg font-semibold">
              Quick help
            </h2>
            <ul className="mt-3 space-y-4 text-sm">
              {QUICK_HELP.map((item) => (
                <li key={item.title}>
                  <p className="font-medium">{item.title}</p>
                  <p className="text-slate-600">{item.text}</p>
                  <Link to={item.to} className="text-brand-700 hover:underline">
                    {item.link}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        </aside>
      </div>

      <section className="mt-12" aria-labelledby="resources">
        <h2 id="resources" className="text-xl font-semibold">
          Resources
        </h2>
        <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {RESOURCES.map((r) => (
            <li key={r.to}>
              <Link to={r.to} className="card block h-full p-5 transition-shadow hover:shadow-md">
                <p className="font-semibold text-slate-900">{r.title}</p>
                <p className="mt-1 text-sm text-slate-600">{r.text}</p>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

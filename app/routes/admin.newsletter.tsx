import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Form } from "~/components/form";
import { useEffect, useState } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { JobOutcome } from "~/components/job-outcome";
import { JobProgress } from "~/components/job-progress";
import { LiveRefresh } from "~/components/live-refresh";
import { NEWSLETTER_TASK } from "~/domain/background-jobs";
import { getJobSummary } from "~/services/admin/jobs.server";
import { recentCampaigns, sanitizeNewsletterHtml, segmentCounts, sendNewsletter } from "~/services/newsletter.server";
import { limitWrite } from "~/services/write-limits.server";
import { requireAdmin } from "~/utils/admin.server";
import { httpStatusOf, isAppError, toastOf } from "~/utils/app-error.server";
import { LocalTime } from "~/components/local-time";
import { parseId } from "~/utils/misc";
import { jobFinishToast, watchJobHeader } from "~/utils/job-toasts.server";
import { redirectWithToast } from "~/utils/toast.server";
import { useIsPending } from "~/utils/misc-react";

export const meta: MetaFunction = () => [{ title: "Newsletter Campaign | Printnear" }];

const SEGMENTS = [
  { id: "all", label: "All subscribers" },
  { id: "buyers", label: "Buyers" },
  { id: "printer_owners", label: "Printer owners" },
  { id: "investors", label: "Investors" },
  { id: "unknown", label: "Unknown" },
] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const jobId = parseId(new URL(request.url).searchParams.get("job"));
  const found = jobId ? await getJobSummary(jobId) : null;
  const job = found?.type === NEWSLETTER_TASK ? found : null;
  // the campaign this browser started flashes "Newsletter Sent!" or "Send Failed" once it has finished
  const { toast, headers } = await jobFinishToast(request, job ? [job] : []);
  const [counts, campaigns] = await Promise.all([segmentCounts(), recentCampaigns(5)]);
  return data({ counts, campaigns, job, jobToast: toast }, { headers });
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await request.formData();
  const input = { subject: form.get("subject") ?? "", content: form.get("content") ?? "", segment: form.get("segment") ?? "all" };
  const echo = { subject: String(input.subject), content: String(input.content), segment: String(input.segment) };
  if (form.get("intent") === "preview") {
    return { preview: sanitizeNewsletterHtml(echo.content), values: echo, error: null };
  }
  try {
    await limitWrite(admin.id, "admin");
    const sent = await sendNewsletter(input, admin.id);
    return redirectWithToast(
      `/admin/newsletter?job=${sent.jobId}`,
      { title: "Sending started", description: `${sent.recipientCount} subscribers; the e-mails go out in the background.` },
      { headers: { "set-cookie": await watchJobHeader(request, sent.jobId) } },
    );
  } catch (error) {
    if (!isAppError(error)) throw error;
    if (error.code === "invalid" || error.code === "too_large") {
      const missing = error.message === "Please fill in subject and message";
      return data(
        {
          preview: null,
          values: echo,
          error: { title: missing ? "Missing Information" : "Send Failed", message: error.message },
        },
        { status: httpStatusOf(error) },
      );
    }
    return redirectWithToast("/admin/newsletter", toastOf(error, "Send Failed"));
  }
}

export default function AdminNewsletter() {
  const { counts, campaigns, job } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Newsletter Campaign</h1>
      <section aria-label="Subscribers" className="grid grid-cols-2 gap-3 sm:grid-cols-5">
        {SEGMENTS.map((s) => (
          <div key={s.id} className="rounded-lg border border-slate-200 bg-white p-3 text-center">
            <p className="text-2xl font-bold" data-testid={`count-${s.id}`}>
              {counts[s.id]}
            </p>
            <p className="text-xs text-slate-600">{s.label}</p>
          </div>
        ))}
      </section>
      {job ? (
        <section className="space-y-2 rounded-lg border border-slate-200 bg-white p-4">
          <LiveRefresh active={!job.finished} />
          <JobProgress job={job} />
          <JobOutcome job={job} />
        </section>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-2">
        <ComposeForm key={job?.id ?? "compose"} counts={counts} />
        <section className="rounded-lg border border-slate-200 bg-white p-4">
          <h2 className="mb-3 font-semibold">Recent Campaigns</h2>
          {campaigns.length === 0 ? (
            <p className="text-sm text-slate-600">No campaigns sent yet</p>
          ) : (
            <ul className="divide-y divide-slate-100 text-sm">
              {campaigns.map((c) => (
                <li key={c.id} className="py-2">
                  <p className="font-medium">{c.subject}</p>
                  <p className="text-slate-600">
                    {c.segment} · {c.recipientCount} recipients · <LocalTime value={c.sentAt} dateOnly />
                  </p>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}

/** The compose form; keyed by the sent job, so it starts empty again after a send. */
function ComposeForm({ counts }: { counts: Record<string, number> }) {
  const actionData = useActionData<typeof action>();
  const values = actionData && "values" in actionData ? actionData.values : null;
  const [subject, setSubject] = useState(values?.subject ?? "");
  const [content, setContent] = useState(values?.content ?? "");
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const sending = useIsPending({ state: "submitting", intent: "send" });
  return (
    <Form method="post" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 className="font-semibold">Compose</h2>
      {actionData && "error" in actionData && actionData.error ? (
        <div role="alert" className="rounded border border-red-300 bg-red-50 p-2 text-sm text-red-900">
          <p className="font-semibold">{actionData.error.title}</p>
          <p>{actionData.error.message}</p>
        </div>
      ) : null}
      <label className="block text-sm">
        <span className="font-medium">Subject</span>
        <input
          name="subject"
          value={subject}
          onChange={(e) => setSubject(e.target.value)}
          maxLength={200}
          className="mt-1 block w-full rounded border border-slate-300 px-2 py-1.5"
        />
      </label>
      <label className="block text-sm">
        <span className="font-medium">Message (HTML allowed)</span>
        <textarea
          name="content"
          rows={10}
          value={content}
          onChange={(e) => setContent(e.target.value)}
          className="mt-1 block w-full rounded border border-slate-300 px-2 py-1.5 font-mono text-xs"
        />
      </label>
      <label className="block text-sm">
        <span className="font-medium">Segment</span>
        <select
          name="segment"
          defaultValue={values?.segment ?? "all"}
          className="mt-1 block w-full rounded border border-slate-300 px-2 py-1.5"
        >
          {SEGMENTS.map((s) => (
            <option key={s.id} value={s.id}>
              {s.label} ({counts[s.id]})
            </option>
          ))}
        </select>
      </label>
      <div className="flex gap-2">
        <button name="intent" value="preview" className="rounded border border-slate-300 px-4 py-2 text-sm hover:bg-slate-50">
          Preview
        </button>
        <button
          name="intent"
          value="send"
          // without JavaScript the server checks the fields and answers "Missing Information"
          disabled={sending || (hydrated && (!subject.trim() || !content.trim()))}
          className="rounded bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700 disabled:opacity-60"
        >
          {sending ? "Sending..." : "Send Newsletter"}
        </button>
      </div>
      {actionData && "preview" in actionData && actionData.preview !== null ? (
        <section aria-label="Preview" className="rounded border border-slate-200 p-3">
          <h3 className="mb-2 text-sm font-medium text-slate-600">Preview</h3>
          {/* sanitised on the server: no scripts, event handlers or javascript: URLs */}
          <div className="prose prose-sm" dangerouslySetInnerHTML={{ __html: actionData.preview }} />
        </section>
      ) : null}
    </Form>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

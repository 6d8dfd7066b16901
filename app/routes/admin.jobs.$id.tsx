import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Form } from "~/components/form";
import { Link } from "~/components/link";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { JobFailureList, JobOutcome } from "~/components/job-outcome";
import { JobProgress } from "~/components/job-progress";
import { LiveRefresh } from "~/components/live-refresh";
import { cancelJob, getJobSummary, listJobFailures } from "~/services/admin/jobs.server";
import { requireAdmin } from "~/utils/admin.server";
import { invariantResponse, requireIdParam } from "~/utils/misc";
import { jobFinishToast } from "~/utils/job-toasts.server";
import { redirectWithToast } from "~/utils/toast.server";
import { isAppError, toastOf } from "~/utils/app-error.server";
import { limitWrite } from "~/services/write-limits.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.job.label} #${data.job.id} | Printnear` : "Job | Printnear" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const job = await getJobSummary(requireIdParam(params.id));
  invariantResponse(job, "Job not found", { status: 404 });
  const [{ toast, headers }, failures] = await Promise.all([jobFinishToast(request, [job]), listJobFailures(job)]);
  return data({ job, failures, jobToast: toast }, { headers });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const id = requireIdParam(params.id);
  const form = await request.formData();
  invariantResponse(form.get("intent") === "cancel", "Unknown action", { status: 400 });
  try {
    await limitWrite(admin.id, "admin");
  } catch (error) {
    if (isAppError(error)) return redirectWithToast(`/admin/jobs/${id}`, toastOf(error));
    throw error;
  }
  const cancelled = await cancelJob(id);
  return redirectWithToast(
    `/admin/jobs/${id}`,
    cancelled
      ? { title: "Cancelling", description: "The job stops after its current item." }
      : { title: "Not cancelled", description: "The job has already finished.", variant: "destructive" },
  );
}

export default function AdminJob() {
  const { job, failures } = useLoaderData<typeof loader>();
  return (
    <div className="max-w-2xl space-y-4">
      <Link to="/admin/jobs" className="text-sm text-blue-700 hover:underline">
        ← All jobs
      </Link>
      <h1 className="text-2xl font-bold">{job.label}</h1>
      <LiveRefresh active={!job.finished} />
      <JobProgress job={job} />
      <JobOutcome job={job} />
      <JobFailureList failures={failures} />
      {job.status === "queued" && job.attempts > 0 && job.lastError ? (
        <p className="text-sm text-amber-700">Retrying after an error: {job.lastError}</p>
      ) : null}
      {!job.finished ? (
        <Form method="post">
          <button
            name="intent"
            value="cancel"
            className="rounded border border-red-300 px-3 py-1.5 text-sm text-red-700 hover:bg-red-50"
          >
            Cancel job
          </button>
        </Form>
      ) : null}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { jobOutcomeMessage } from "~/domain/background-jobs";
import { getJobSummary, listJobFailures } from "~/services/admin/jobs.server";
import { apiError, idParam, requireApiAdmin } from "~/utils/api.server";

// GET /api/admin/jobs/:id: the job's state and progress, the items it failed and why; once finished, its message and stats.
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireApiAdmin(request);
  const job = await getJobSummary(idParam(params.id));
  if (!job) return apiError(404, "Job not found");
  const outcome = jobOutcomeMessage(job);
  return Response.json({
    job,
    message: outcome ? `${outcome.title}: ${outcome.description}` : null,
    stats: job.result?.stats ?? null,
    failures: await listJobFailures(job),
  });
}

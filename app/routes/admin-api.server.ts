// The admin JSON calls that start a background job: admin check (401/403), per-admin write limit,
// a bounded JSON body, then 202 with the job at once; GET /api/admin/jobs/:id follows it.
import { summarizeJob } from "~/domain/background-jobs";
import { getTask } from "~/services/jobs/index.server";
import { limitWrite } from "~/services/write-limits.server";
import { readJson, requireApiAdmin } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";

export async function startJobFromApi(
  request: Request,
  start: (body: Record<string, unknown>, adminId: number) => Promise<{ id: number }>,
) {
  if (request.method !== "POST")
    return Response.json({ message: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
  const admin = await requireApiAdmin(request);
  return withApiErrors(async () => {
    await limitWrite(admin.id, "admin");
    const { id } = await start(await readJson(request, 200 * 1024), admin.id);
    const task = await getTask(id);
    return Response.json(
      { message: "Job started", job: task ? summarizeJob(task) : { id }, statusUrl: `/api/admin/jobs/${id}` },
      { status: 202, headers: { Location: `/api/admin/jobs/${id}` } },
    );
  });
}

// Background jobs as the admin pages and API show them.
import { summarizeJob, type JobSummary, type TaskState } from "~/domain/background-jobs";
import { cancelTask, getTask, listTasks } from "~/services/jobs/index.server";

export async function getJobSummary(id: number): Promise<JobSummary | null> {
  const task = await getTask(id);
  return task ? summarizeJob(task) : null;
}

export async function listJobSummaries(filter: { statuses?: TaskState[]; limit?: number } = {}): Promise<JobSummary[]> {
  // single e-mails are plumbing, not admin jobs
  const tasks = await listTasks({ ...filter, excludeTypes: ["mail.send"], limit: filter.limit ?? 50 });
  return tasks.map((t) => summarizeJob(t));
}

export async function cancelJob(id: number): Promise<boolean> {
  return cancelTask(id);
}

// Background jobs as the admin pages and API show them.
import { and, eq, inArray } from "drizzle-orm";
import { catalogueModels } from "../../../db/schema";
import { CATALOGUE_TASKS, summarizeJob, type JobFailure, type JobSummary, type TaskState } from "~/domain/background-jobs";
import { CATALOGUE_SOURCE } from "~/services/catalogue/sync.server";
import { cancelTask, getTask, listTaskItems, listTasks } from "~/services/jobs/index.server";
import { getDb } from "~/utils/db.server";

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

const CATALOGUE_TASK_TYPES: readonly string[] = Object.values(CATALOGUE_TASKS);
const NO_REASON = "No reason was recorded.";

/** The items a job could not do, each with its reason; catalogue items with the model's name and page. */
export async function listJobFailures(job: Pick<JobSummary, "id" | "type">): Promise<JobFailure[]> {
  const items = await listTaskItems(job.id, "failed");
  const catalogue = CATALOGUE_TASK_TYPES.includes(job.type);
  const names = catalogue ? await catalogueModelNames(items.map((i) => Number(i.key))) : new Map<number, string>();
  return items.map((item) => {
    const reason = (item.detail as { reason?: unknown } | null)?.reason;
    return {
      key: item.key,
      name: names.get(Number(item.key)) ?? null,
      href: catalogue ? `/models/${CATALOGUE_SOURCE}/${item.key}` : null,
      reason: typeof reason === "string" && reason.trim() ? reason : NO_REASON,
    };
  });
}

async function catalogueModelNames(sourceIds: number[]): Promise<Map<number, string>> {
  const ids = sourceIds.filter((id) => Number.isInteger(id));
  if (ids.length === 0) return new Map();
  const db = await getDb();
  const rows = await db
    .select({ sourceId: catalogueModels.sourceId, name: catalogueModels.name })
    .from(catalogueModels)
    .where(and(eq(catalogueModels.source, CATALOGUE_SOURCE), inArray(catalogueModels.sourceId, ids)));
  return new Map(rows.map((r) => [r.sourceId, r.name]));
}

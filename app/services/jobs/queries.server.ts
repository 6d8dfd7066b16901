// Reading background tasks for the admin pages: lists, one task with its progress, counts.
import { and, desc, eq, inArray, notInArray, sql } from "drizzle-orm";
import { backgroundTaskItems, backgroundTasks } from "../../../db/schema";
import type { TaskProgress, TaskState } from "~/domain/background-jobs";
import { getDb } from "~/utils/db.server";

export interface TaskView {
  id: number;
  type: string;
  status: TaskState;
  attempts: number;
  maxAttempts: number;
  progress: TaskProgress | null;
  result: unknown;
  lastError: string | null;
  cancelRequested: boolean;
  payload: unknown;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  runAt: number;
}

const columns = {
  id: backgroundTasks.id,
  type: backgroundTasks.kind,
  status: backgroundTasks.status,
  attempts: backgroundTasks.attempts,
  maxAttempts: backgroundTasks.maxAttempts,
  progress: backgroundTasks.progress,
  result: backgroundTasks.result,
  lastError: backgroundTasks.lastError,
  cancelRequested: backgroundTasks.cancelRequested,
  payload: backgroundTasks.payload,
  createdAt: backgroundTasks.createdAt,
  startedAt: backgroundTasks.startedAt,
  finishedAt: backgroundTasks.finishedAt,
  runAt: backgroundTasks.runAt,
};

async function _selectOne() {
  const db = await getDb();
  return db.select(columns).from(backgroundTasks).limit(1);
}
type Selected = Awaited<ReturnType<typeof _selectOne>>[number];

function viewOf(row: Selected): TaskView {
  return {
    ...row,
    status: row.status as TaskState,
    progress: (row.progress as TaskProgress | null) ?? null,
    createdAt: row.createdAt.getTime(),
    startedAt: row.startedAt?.getTime() ?? null,
    finishedAt: row.finishedAt?.getTime() ?? null,
    runAt: row.runAt.getTime(),
  };
}

export async function getTask(id: number): Promise<TaskView | null> {
  const db = await getDb();
  const [row] = await db.select(columns).from(backgroundTasks).where(eq(backgroundTasks.id, id));
  return row ? viewOf(row) : null;
}

export async function listTasks(
  filter: { types?: string[]; excludeTypes?: string[]; statuses?: TaskState[]; limit?: number } = {},
): Promise<TaskView[]> {
  const db = await getDb();
  const rows = await db
    .select(columns)
    .from(backgroundTasks)
    .where(
      and(
        filter.types?.length ? inArray(backgroundTasks.kind, filter.types) : undefined,
        filter.excludeTypes?.length ? notInArray(backgroundTasks.kind, filter.excludeTypes) : undefined,
        filter.statuses?.length ? inArray(backgroundTasks.status, filter.statuses) : undefined,
      ),
    )
    .orderBy(desc(backgroundTasks.id))
    .limit(filter.limit ?? 50);
  return rows.map(viewOf);
}

export async function countTasksByStatus(): Promise<Record<string, number>> {
  const db = await getDb();
  const rows = await db
    .select({ status: backgroundTasks.status, n: sql<number>`count(*)` })
    .from(backgroundTasks)
    .groupBy(backgroundTasks.status);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

export interface TaskItemView {
  key: string;
  outcome: string;
  detail: unknown;
}

/** One task's recorded items with this outcome, in the order they were done. */
export async function listTaskItems(taskId: number, outcome: string, limit = 200): Promise<TaskItemView[]> {
  const db = await getDb();
  return db
    .select({ key: backgroundTaskItems.itemKey, outcome: backgroundTaskItems.outcome, detail: backgroundTaskItems.detail })
    .from(backgroundTaskItems)
    .where(and(eq(backgroundTaskItems.taskId, taskId), eq(backgroundTaskItems.outcome, outcome)))
    .orderBy(backgroundTaskItems.doneAt, backgroundTaskItems.itemKey)
    .limit(limit);
}

// The job runner's public interface (decision 012). Handlers register at start-up
// (app/services/jobs/handlers.server.ts); the web server starts the worker unless WORKER=off.
export { enqueueTask, schedulePeriodic, cancelTask, type EnqueueOptions } from "./enqueue.server";
export {
  registerTaskHandler,
  startWorker,
  runDueTasks,
  PermanentTaskError,
  type TaskContext,
  type TaskHandler,
  type Worker,
  type WorkerOptions,
} from "./runner.server";
export { getTask, listTasks, listTaskItems, countTasksByStatus, type TaskItemView, type TaskView } from "./queries.server";

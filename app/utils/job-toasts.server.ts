// The documented toast of a finished background job, shown once by the page that follows it.
// A cookie remembers, per browser, the jobs a page has shown unfinished (or that this browser
// started); when such a job has finished, the page's loader answers its toast and forgets the job,
// so the toast shows once, whether the page refreshes by polling or by its refresh tag.
import { createCookie } from "@remix-run/node";
import { jobOutcomeMessage, type JobSummary } from "~/domain/background-jobs";
import { cookieOptions } from "./env.server";
import type { Toast } from "./toast.server";

const MAX_WATCHED = 20;

let cookie: ReturnType<typeof createCookie> | undefined;
function watchedCookie() {
  cookie ??= createCookie("pn_jobs_watched", cookieOptions(7 * 24 * 3600));
  return cookie;
}

async function readWatched(request: Request): Promise<number[]> {
  const value: unknown = await watchedCookie().parse(request.headers.get("cookie"));
  return Array.isArray(value) ? value.filter((id): id is number => Number.isInteger(id)).slice(-MAX_WATCHED) : [];
}

const serialize = (ids: number[]) => watchedCookie().serialize(ids.slice(-MAX_WATCHED));

/** A Set-Cookie header that adds a job this browser just started, so its finish is announced. */
export async function watchJobHeader(request: Request, jobId: number): Promise<string> {
  const ids = await readWatched(request);
  return serialize([...ids.filter((id) => id !== jobId), jobId]);
}

/**
 * The toast of the latest watched job among `jobs` that has finished (null if none), and the
 * header that updates the watch list: unfinished jobs are added, announced ones removed.
 */
export async function jobFinishToast(
  request: Request,
  jobs: JobSummary[],
): Promise<{ toast: Toast | null; headers: Headers | undefined }> {
  const before = await readWatched(request);
  const watched = new Set(before);
  let toast: Toast | null = null;
  for (const job of [...jobs].sort((a, b) => a.id - b.id)) {
    if (!job.finished) {
      watched.add(job.id);
      continue;
    }
    if (!watched.has(job.id)) continue;
    watched.delete(job.id);
    const outcome = jobOutcomeMessage(job);
    if (outcome) toast = { title: outcome.title, description: outcome.description || undefined, variant: outcome.variant };
  }
  const after = [...watched];
  if (after.length === before.length && after.every((id, i) => id === before[i])) return { toast, headers: undefined };
  return { toast, headers: new Headers({ "set-cookie": await serialize(after) }) };
}

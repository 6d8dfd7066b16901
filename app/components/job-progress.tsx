import { durationText, TASK_STATE_LABELS, type JobSummary } from "~/domain/background-jobs";

/** A job's progress bar with its counts, elapsed time and time left. */
export function JobProgress({ job }: { job: JobSummary }) {
  const counts = Object.entries(job.progress?.counts ?? {});
  return (
    <div className="space-y-2" data-testid={`job-${job.id}`}>
      <div className="flex items-center justify-between text-sm">
        <span className="font-medium">
          {job.label} #{job.id}
        </span>
        <span data-testid="job-status">{TASK_STATE_LABELS[job.status]}</span>
      </div>
      <div
        role="progressbar"
        aria-label={`${job.label} progress`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={job.percent}
        className="h-3 w-full overflow-hidden rounded bg-slate-200"
      >
        <div className="h-full bg-blue-600 transition-all" style={{ width: `${job.percent}%` }} />
      </div>
      <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600">
        <span data-testid="job-percent">{job.percent}%</span>
        {job.progress ? (
          <span>
            {job.progress.processed} of {job.progress.total}
          </span>
        ) : null}
        {counts.map(([name, value]) => (
          <span key={name}>
            {name[0]!.toUpperCase() + name.slice(1)}: {value}
          </span>
        ))}
        {job.elapsedMs !== null ? <span>Elapsed: {durationText(job.elapsedMs)}</span> : null}
        {!job.finished && job.timeLeftMs !== null ? <span>Time left: about {durationText(job.timeLeftMs)}</span> : null}
      </div>
    </div>
  );
}

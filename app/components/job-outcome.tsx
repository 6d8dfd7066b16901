import { Link } from "./link";
import { jobOutcomeMessage, type JobFailure, type JobSummary } from "~/domain/background-jobs";

/** The documented message of a finished job ("Import Successful", "Bulk Caching Complete" ...). */
export function JobOutcome({ job }: { job: JobSummary }) {
  const outcome = jobOutcomeMessage(job);
  if (!outcome) return null;
  const destructive = outcome.variant === "destructive";
  return (
    <div
      role="status"
      className={`rounded border p-3 text-sm ${destructive ? "border-red-300 bg-red-50 text-red-900" : "border-green-300 bg-green-50 text-green-900"}`}
    >
      <p className="font-semibold">{outcome.title}</p>
      {outcome.description ? <p>{outcome.description}</p> : null}
    </div>
  );
}

/** The items a job could not do, each with its model (when known) and the reason. */
export function JobFailureList({ failures }: { failures: JobFailure[] }) {
  if (failures.length === 0) return null;
  return (
    <section aria-labelledby="job-failures" className="space-y-2">
      <h2 id="job-failures" className="text-lg font-semibold">
        Failed items ({failures.length})
      </h2>
      <ul className="divide-y divide-slate-200 rounded border border-slate-200 bg-white text-sm" data-testid="job-failures">
        {failures.map((failure) => (
          <li key={failure.key} className="p-3" data-testid="job-failure">
            <p className="font-medium">
              {failure.href ? (
                <Link to={failure.href} className="text-brand-700 underline">
                  {failure.name ?? `#${failure.key}`}
                </Link>
              ) : (
                (failure.name ?? `#${failure.key}`)
              )}
            </p>
            <p className="text-slate-700">{failure.reason}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

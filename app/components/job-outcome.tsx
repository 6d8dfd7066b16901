import { jobOutcomeMessage, type JobSummary } from "~/domain/background-jobs";

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

import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Link } from "~/components/link";
import { JobProgress } from "~/components/job-progress";
import { LiveRefresh } from "~/components/live-refresh";
import { LocalTime } from "~/components/local-time";
import { listJobSummaries } from "~/services/admin/jobs.server";
import { requireAdmin } from "~/utils/admin.server";

export const meta: MetaFunction = () => [{ title: "Background Jobs | Printnear" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return { jobs: await listJobSummaries({ limit: 50 }) };
}

export default function AdminJobs() {
  const { jobs } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold">Background Jobs</h1>
      <LiveRefresh active={jobs.some((j) => !j.finished)} everyMs={2000} />
      {jobs.length === 0 ? (
        <p className="text-slate-600">No jobs yet</p>
      ) : (
        <ul className="space-y-3">
          {jobs.map((job) => (
            <li key={job.id} className="rounded border border-slate-200 bg-white p-3">
              <Link to={`/admin/jobs/${job.id}`} className="block hover:bg-slate-50">
                <JobProgress job={job} />
                <p className="mt-1 text-xs text-slate-500">
                  Started <LocalTime value={job.createdAt} />
                </p>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Form } from "~/components/form";
import { Link } from "~/components/link";
import { parseWithZod } from "@conform-to/zod";
import { z } from "zod";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorList } from "~/components/forms";
import { JobOutcome } from "~/components/job-outcome";
import { JobProgress } from "~/components/job-progress";
import { LiveRefresh } from "~/components/live-refresh";
import { CATALOGUE_TASKS } from "~/domain/background-jobs";
import { listJobSummaries } from "~/services/admin/jobs.server";
import {
  IMPORT_LIMITS,
  startBulkCaching,
  startCategoryImport,
  startPopularImport,
  startWeightCaching,
} from "~/services/catalogue/import.server";
import { limitWrite } from "~/services/write-limits.server";
import { requireAdmin } from "~/utils/admin.server";
import { AppError, isAppError, replyWithError, toastOf } from "~/utils/app-error.server";
import { resultForIntent } from "~/utils/misc";
import { jobFinishToast, watchJobHeader } from "~/utils/job-toasts.server";
import { redirectWithToast } from "~/utils/toast.server";
import { useIsPending } from "~/utils/misc-react";

export const meta: MetaFunction = () => [{ title: "Thingiverse Import | Printnear" }];

const SUGGESTED_CATEGORIES = ["toys", "organizer", "phone stand", "vase", "keychain", "miniature", "tool", "gadget"];
const CATALOGUE_TYPES = Object.values(CATALOGUE_TASKS) as string[];

// the import service judges the numbers; the schema only carries the post (its intent) into conform's reply
const ImportFormSchema = z.object({ intent: z.string() });

const START_TITLES: Record<string, string> = {
  popular: "Import started",
  category: "Import started",
  weights: "Weight calculation started",
  bulk: "Bulk caching started",
};

const FAILURE_TITLES: Record<string, string> = {
  popular: "Import Failed",
  category: "Import Failed",
  weights: "Calculation Failed",
  bulk: "Bulk Cache Failed",
};

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const jobs = (await listJobSummaries({ limit: 30 })).filter((j) => CATALOGUE_TYPES.includes(j.type)).slice(0, 6);
  // a job this browser saw running (or started) flashes its documented toast once it has finished
  const { toast, headers } = await jobFinishToast(request, jobs);
  return data(
    { jobs, category: (url.searchParams.get("category") ?? "").slice(0, 100), limits: IMPORT_LIMITS, jobToast: toast },
    { headers },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const field = (name: string) => form.get(name) ?? undefined;
  try {
    await limitWrite(admin.id, "admin");
    let job: { id: number };
    if (intent === "popular") job = await startPopularImport({ count: field("count") });
    else if (intent === "category") job = await startCategoryImport({ category: field("category"), count: field("count") });
    else if (intent === "weights") job = await startWeightCaching({ count: field("count"), page: field("page") });
    else if (intent === "bulk") job = await startBulkCaching({ total: field("total"), startPage: field("startPage") });
    else throw new AppError("invalid", "Unknown action.");
    return redirectWithToast(
      "/admin/import",
      {
        title: START_TITLES[intent],
        description: `Job #${job.id} runs in the background; its progress shows above the cards.`,
      },
      { headers: { "set-cookie": await watchJobHeader(request, job.id) } },
    );
  } catch (error) {
    if (!isAppError(error)) throw error;
    const title = FAILURE_TITLES[intent] ?? "Error";
    if (error.code === "invalid") return replyWithError(parseWithZod(form, { schema: ImportFormSchema }), error);
    return redirectWithToast("/admin/import", toastOf(error, title));
  }
}

function NumberField(props: { label: string; name: string; min: number; max: number; defaultValue: number; hint: string }) {
  return (
    <label className="block text-sm">
      <span className="font-medium">{props.label}</span>
      <input
        type="number"
        name={props.name}
        min={props.min}
        max={props.max}
        defaultValue={props.defaultValue}
        required
        className="mt-1 block w-full rounded border border-slate-300 px-2 py-1.5"
      />
      <span className="text-xs text-slate-500">{props.hint}</span>
    </label>
  );
}

function Card({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 className="font-semibold">{title}</h2>
      {children}
    </section>
  );
}

function SubmitButton({ intent, label, pendingLabel }: { intent: string; label: string; pendingLabel: string }) {
  const pending = useIsPending({ state: "submitting", intent });
  return (
    <button
      name="intent"
      value={intent}
      disabled={pending}
      className="rounded bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700 disabled:opacity-60"
    >
      {pending ? pendingLabel : label}
    </button>
  );
}

export default function AdminImport() {
  const { jobs, category, limits } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const errorFor = (intent: string) => {
    const refused = resultForIntent(actionData?.result, intent);
    return refused?.error ? (
      <div role="alert" className="text-sm text-red-700">
        <ErrorList errors={Object.values(refused.error).flat()} />
      </div>
    ) : null;
  };
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Thingiverse Import</h1>
      <LiveRefresh active={jobs.some((j) => !j.finished)} />
      {jobs.length > 0 ? (
        <section aria-label="Recent import jobs" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
          {jobs.map((job) => (
            <div key={job.id} className="space-y-2">
              <Link to={`/admin/jobs/${job.id}`} className="block hover:bg-slate-50">
                <JobProgress job={job} />
              </Link>
              <JobOutcome job={job} />
              {job.status === "failed" && job.type === CATALOGUE_TASKS.importPopular ? (
                <p className="text-sm text-red-700">Import failed. Please check API token and try again.</p>
              ) : null}
            </div>
          ))}
        </section>
      ) : null}
      <div className="grid gap-4 md:grid-cols-2">
        <Card title="Import Popular Models">
          <Form method="post" className="space-y-3">
            <NumberField
              label="Number of models"
              name="count"
              min={limits.popular.min}
              max={limits.popular.max}
              defaultValue={limits.popular.default}
              hint="1 to 200 (50 to 100 recommended)"
            />
            {errorFor("popular")}
            <SubmitButton intent="popular" label="Import Popular Models" pendingLabel="Importing..." />
          </Form>
        </Card>
        <Card title="Import by Category">
          <Form method="post" className="space-y-3" key={category}>
            <label className="block text-sm">
              <span className="font-medium">Category</span>
              <input
                type="text"
                name="category"
                defaultValue={category}
                maxLength={100}
                placeholder="e.g. vase"
                className="mt-1 block w-full rounded border border-slate-300 px-2 py-1.5"
              />
            </label>
            <NumberField
              label="Number of models"
              name="count"
              min={limits.category.min}
              max={limits.category.max}
              defaultValue={limits.category.default}
              hint="1 to 50"
            />
            {errorFor("category")}
            <SubmitButton intent="category" label="Import Category" pendingLabel="Importing..." />
          </Form>
          <div>
            <h3 className="text-sm font-medium">Suggested Categories</h3>
            <div className="mt-2 flex flex-wrap gap-2">
              {SUGGESTED_CATEGORIES.map((name) => (
                <Link
                  key={name}
                  to={`?category=${encodeURIComponent(name)}`}
                  preventScrollReset
                  className="rounded-full border border-slate-300 px-3 py-1 text-xs hover:bg-slate-100"
                >
                  {name}
                </Link>
              ))}
            </div>
          </div>
        </Card>
        <Card title="Quick Weight Caching">
          <Form method="post" className="space-y-3">
            <NumberField
              label="Models"
              name="count"
              min={limits.weightCount.min}
              max={limits.weightCount.max}
              defaultValue={limits.weightCount.default}
              hint="1 to 500 per batch"
            />
            <NumberField
              label="Page"
              name="page"
              min={limits.weightPage.min}
              max={limits.weightPage.max}
              defaultValue={limits.weightPage.default}
              hint="1 to 100"
            />
            {errorFor("weights")}
            <SubmitButton intent="weights" label="Calculate Weights" pendingLabel="Calculating..." />
          </Form>
        </Card>
        <Card title="Bulk Weight Caching">
          <Form method="post" className="space-y-3">
            <NumberField
              label="Total models"
              name="total"
              min={limits.bulkTotal.min}
              max={limits.bulkTotal.max}
              defaultValue={limits.bulkTotal.default}
              hint="100 to 10000 (1000+ recommended)"
            />
            <NumberField
              label="Start page"
              name="startPage"
              min={limits.bulkStartPage.min}
              max={limits.bulkStartPage.max}
              defaultValue={limits.bulkStartPage.default}
              hint="1 to 1000, 100 models per page"
            />
            {errorFor("bulk")}
            <SubmitButton intent="bulk" label="Start Bulk Caching" pendingLabel="Caching..." />
          </Form>
        </Card>
      </div>
      <Card title="Import Tips">
        <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
          <li>Imports take about 500 ms per model; weights about 1 model per second (100 models about 2 minutes).</li>
          <li>Bulk caching: 1,000 models take about 8 minutes, 5,000 about 40 minutes, 10,000 about 80 minutes.</li>
          <li>Models already cached are skipped, and downloaded files are discarded once the weight is computed.</li>
          <li>Imported models are never duplicated: importing a model again refreshes it.</li>
          <li>Jobs run in the background: you can leave this page and follow them under Jobs.</li>
        </ul>
      </Card>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

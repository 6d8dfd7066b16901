import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useSubmit } from "@remix-run/react";
import { Form } from "~/components/form";
import { Link } from "~/components/link";
import { useEffect, useRef } from "react";
import { ModelCard, ModelCardSkeleton } from "~/components/model-card";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { MODEL_PAGE_SIZE, MODEL_SORTS, parseModelSort } from "~/domain/models";
import { syncCatalogueListing } from "~/services/catalogue/sync.server";
import { listCatalogueModels, listCategories, listLibraryModels } from "~/services/models/lists.server";
import { parseId } from "~/utils/misc";
import { visitorOf } from "~/utils/session.server";
import { useIsLoading } from "~/utils/misc-react";
import { formatNumber } from "~/domain/format";

export const meta: MetaFunction = () => [{ title: "Browse Models | Printnear" }];

const SKELETON_CARDS = 8;

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const tab = url.searchParams.get("tab") === "library" ? "library" : "thingiverse";
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const sort = parseModelSort(url.searchParams.get("sort"));
  const page = parseId(url.searchParams.get("page")) ?? 1;

  if (tab === "library") {
    const categoryId = parseId(url.searchParams.get("category"));
    const [result, categories] = await Promise.all([listLibraryModels({ q, sort, categoryId, page }), listCategories()]);
    return { tab, q, sort, categoryId, categories, catalogueUnavailable: false, ...result };
  }
  // the site only enriches our table; whatever it says, the page reads from the database
  const sync = await syncCatalogueListing(
    { type: sort, q, page, perPage: MODEL_PAGE_SIZE },
    { visitor: await visitorOf(request) },
  );
  const result = await listCatalogueModels({ q, sort, page });
  return { tab, q, sort, categoryId: null, categories: [], catalogueUnavailable: sync === "unavailable", ...result };
}

export default function BrowseModels() {
  const data = useLoaderData<typeof loader>();
  const { tab, q, sort, categoryId, categories, models, page, pageCount, total } = data;
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const typingTimer = useRef<ReturnType<typeof setTimeout>>();
  const loading = useIsLoading("/models");

  useEffect(() => () => clearTimeout(typingTimer.current), []);
  // a link (tab, empty state) may change the term; never overwrite what someone is typing
  useEffect(() => {
    const input = searchRef.current;
    if (input && document.activeElement !== input) input.value = q;
  }, [q]);
  // with JavaScript the filters apply as they change; without it the Search button submits the same GET form
  const submitNow = () => {
    clearTimeout(typingTimer.current);
    if (formRef.current) submit(formRef.current, { replace: true, preventScrollReset: true });
  };
  const submitSoon = () => {
    clearTimeout(typingTimer.current);
    typingTimer.current = setTimeout(submitNow, 300);
  };

  const linkWith = (changes: Record<string, string | number | null>) => {
    const params = new URLSearchParams();
    const merged: Record<string, string | number | null> = {
      tab,
      q: q || null,
      sort,
      category: categoryId,
      page: null,
      ...changes,
    };
    for (const [key, value] of Object.entries(merged)) {
      if (value === null || value === "" || (key === "tab" && value === "thingiverse") || (key === "page" && value === 1))
        continue;
      params.set(key, String(value));
    }
    const query = params.toString();
    return query ? `/models?${query}` : "/models";
  };

  const tabClass = (active: boolean) =>
    `border-b-2 px-4 py-2 text-sm font-medium whitespace-nowrap ${active ? "border-brand-600 text-brand-700" : "border-transparent text-slate-600 hover:text-slate-900"}`;

  return (
    <div className="container-page py-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">Thousands of Models, One Click Away</h1>
          <p className="mt-2 text-slate-600">
            Find a model on Thingiverse or in the Printnear library and have it printed by a maker near you.
          </p>
        </div>
        <Link to="/upload-model" className="btn-primary">
          Upload Model
        </Link>
      </div>

      <nav aria-label="Model sources" className="mt-6 flex gap-1 border-b border-slate-200">
        <Link
          to={linkWith({ tab: "thingiverse", category: null })}
          aria-current={tab === "thingiverse" ? "page" : undefined}
          className={tabClass(tab === "thingiverse")}
        >
          Browse Thingiverse
        </Link>
        <Link
          to={linkWith({ tab: "library" })}
          aria-current={tab === "library" ? "page" : undefined}
          className={tabClass(tab === "library")}
        >
          Your Library
        </Link>
      </nav>

      <Form ref={formRef} method="get" action="/models" role="search" className="mt-6 flex flex-wrap items-end gap-3">
        {tab === "library" ? <input type="hidden" name="tab" value="library" /> : null}
        <div className="min-w-[14rem] flex-1">
          <label htmlFor="model-search" className="label">
            Search
          </label>
          <input
            ref={searchRef}
            id="model-search"
            type="search"
            name="q"
            defaultValue={q}
            maxLength={100}
            placeholder={tab === "library" ? "Search the library..." : "Search Thingiverse models..."}
            className="input"
            onChange={submitSoon}
          />
        </div>
        <div>
          <label htmlFor="model-sort" className="label">
            Sort by
          </label>
          <select key={sort} id="model-sort" name="sort" defaultValue={sort} className="input" onChange={submitNow}>
            {MODEL_SORTS.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        {tab === "library" ? (
          <div>
            <label htmlFor="model-category" className="label">
              Category
            </label>
            <select
              key={categoryId ?? ""}
              id="model-category"
              name="category"
              defaultValue={categoryId ?? ""}
              className="input"
              onChange={submitNow}
            >
              <option value="">All Categories</option>
              {categories.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <button type="submit" className="btn-secondary">
          Search
        </button>
      </Form>

      {data.catalogueUnavailable ? (
        <p role="status" className="mt-4 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Thingiverse isn't answering right now, so you're seeing the models we already know. Try again in a minute for the
          latest.
        </p>
      ) : null}

      <p className="mt-6 text-sm text-slate-500" aria-live="polite">
        {loading ? "Loading models..." : `${formatNumber(total)} ${total === 1 ? "model" : "models"}`}
      </p>

      {loading ? (
        <ul className="mt-3 grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4" aria-busy="true">
          {Array.from({ length: SKELETON_CARDS }, (_, i) => (
            <ModelCardSkeleton key={i} />
          ))}
        </ul>
      ) : models.length === 0 ? (
        <div className="card mt-3 p-10 text-center text-slate-600" data-testid="models-empty">
          {q || categoryId || tab === "thingiverse" ? (
            <p>No results found. Try a different search.</p>
          ) : (
            <>
              <p>No models in your library yet. Browse Thingiverse to find models!</p>
              <Link to="/models" className="btn-secondary mt-4">
                Browse Thingiverse
              </Link>
            </>
          )}
        </div>
      ) : (
        <ul className="mt-3 grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {models.map((model) => (
            <ModelCard key={`${model.source}-${model.id}`} model={model} />
          ))}
        </ul>
      )}

      {pageCount > 1 && !loading ? (
        <nav aria-label="Pagination" className="mt-8 flex items-center justify-center gap-3 text-sm">
          {page > 1 ? (
            <Link to={linkWith({ page: page - 1 })} rel="prev" className="btn-secondary">
              Previous
            </Link>
          ) : (
            <span className="btn-secondary pointer-events-none opacity-50" aria-disabled="true">
              Previous
            </span>
          )}
          <span className="text-slate-600">
            Page {page} of {pageCount}
          </span>
          {page < pageCount ? (
            <Link to={linkWith({ page: page + 1 })} rel="next" className="btn-secondary">
              Next
            </Link>
          ) : (
            <span className="btn-secondary pointer-events-none opacity-50" aria-disabled="true">
              Next
            </span>
          )}
        </nav>
      ) : null}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

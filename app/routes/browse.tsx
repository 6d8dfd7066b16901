import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useLocation, useRouteLoaderData } from "@remix-run/react";
import { Form } from "~/components/form";
import { Link } from "~/components/link";
import { useState } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PrinterCard, ratingText } from "~/components/printer-card";
import {
  FilterSelect,
  HiddenParams,
  LocationNotice,
  RadiusSelect,
  selectPrinterHref,
  toMapPrinter,
  ViewTabs,
} from "~/components/printer-filters";
import { PageLinks } from "~/components/page-links";
import { PrinterMap } from "~/components/printer-map";
import { formatDistance } from "~/domain/geo";
import { BROWSE_MATERIALS } from "~/domain/materials";
import { DEFAULT_PAGE_SIZE, pageParam } from "~/domain/printer-listing";
import type { loader as rootLoader } from "~/root";
import { canonicalMaterial, numberParam } from "~/services/printers/search.server";
import { useIsLoading } from "~/utils/misc-react";
import { readPrinterSearch, searchForPage } from "./printer-search.server";

const AVAILABILITY_OPTIONS = [
  { value: "true", label: "Available only" },
  { value: "false", label: "All printers" },
];

export const meta: MetaFunction = () => [{ title: "Find 3D Printers Near You | Printnear" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const ask = await readPrinterSearch(request);
  const { q } = ask;
  const material = canonicalMaterial(q.get("material"));
  // Available only by default; available=false shows every printer.
  const availableOnly = q.get("available") !== "false";
  const page = pageParam(numberParam(q, "page"));
  const { result, filters, listing } = await searchForPage(ask, {
    material,
    available: availableOnly,
    limit: DEFAULT_PAGE_SIZE,
    offset: (page - 1) * DEFAULT_PAGE_SIZE,
  });
  return {
    view: q.get("view") === "map" ? ("map" as const) : ("list" as const),
    filters: { ...filters, material: material ?? "all", available: availableOnly ? "true" : "false" },
    ...listing,
    page,
    pageCount: Math.max(1, Math.ceil(result.total / DEFAULT_PAGE_SIZE)),
  };
}

export default function BrowsePrinters() {
  const data = useLoaderData<typeof loader>();
  const { view, filters, printers } = data;
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const location = useLocation();
  const loading = useIsLoading("/browse");
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const selectHref = (id: number) => selectPrinterHref(id);

  return (
    <div className="container-page py-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold">Find 3D Printers Near You</h1>
          <p className="text-slate-600">Local printer owners ready to print your designs, with pickup or delivery nearby.</p>
        </div>
        <ViewTabs search={location.search} view={view} listLabel="List" />
      </div>

      <Form method="get" className="card mt-6 grid gap-4 p-4 sm:grid-cols-2 lg:grid-cols-5" aria-label="Printer filters">
        <HiddenParams values={{ view: view === "map" ? "map" : null }} />
        <div className="lg:col-span-2">
          <label className="label" htmlFor="location">
            Location
          </label>
          <input
            id="location"
            name="location"
            defaultValue={filters.location}
            placeholder="City, state, or ZIP code"
            className="input"
          />
        </div>
        <RadiusSelect value={filters.radius} />
        <FilterSelect
          name="material"
          label="Material"
          defaultValue={filters.material}
          allLabel="All Materials"
          options={BROWSE_MATERIALS}
        />
        <FilterSelect name="available" label="Availability" defaultValue={filters.available} options={AVAILABILITY_OPTIONS} />
        <div className="flex items-end lg:col-span-4">
          <LocationNotice
            origin={data.origin}
            locationNotFound={data.locationNotFound}
            locationChoices={data.locationChoices}
            locationSuggestions={data.locationSuggestions}
            locationText={data.locationText}
            radiusMiles={filters.radius}
          />
        </div>
        <div className="flex items-end">
          <button type="submit" className="btn-primary w-full">
            Search
          </button>
        </div>
      </Form>

      {loading ? (
        <div className="flex items-center justify-center gap-3 py-16 text-slate-600" role="status">
          <span className="h-6 w-6 animate-spin rounded-full border-2 border-brand-600 border-t-transparent" aria-hidden="true" />
          Loading printers...
        </div>
      ) : printers.length === 0 ? (
        <div className="card mt-6 p-10 text-center" data-testid="empty-state">
          <p className="text-lg font-semibold">No printers found</p>
          <p className="mt-1 text-slate-600">Try adjusting your filters or check back later for new printers.</p>
          <Link to={root?.user ? "/add-printer" : "/auth"} className="btn-primary mt-4">
            List Your Printer
          </Link>
        </div>
      ) : view === "map" ? (
        <div className="mt-6 grid gap-6 lg:grid-cols-3">
          <div className="lg:col-span-2">
            <PrinterMap
              printers={printers.map((p) => toMapPrinter(p, selectHref(p.id)))}
              tileUrl={data.tileUrl}
              selectedId={selectedId}
              onSelectedChange={setSelectedId}
              search={{
                hidden: { view: "map", material: filters.material, available: filters.available, radius: String(filters.radius) },
                defaultValue: filters.location,
              }}
            />
          </div>
          <section aria-labelledby="area-list">
            <h2 id="area-list" className="text-lg font-semibold">
              Available Printers in Area
            </h2>
            <p className="text-sm text-slate-500" data-testid="results-count">
              {data.total} printer(s) found
            </p>
            <ul className="mt-3 space-y-2">
              {printers.map((p) => (
                <li
                  key={p.id}
                  className={`card p-3 ${selectedId === p.id ? "ring-2 ring-brand-500" : ""}`}
                  data-testid="area-row"
                >
                  <div className="flex items-start justify-between gap-2">
                    <div>
                      <button type="button" className="text-left font-medium hover:underline" onClick={() => setSelectedId(p.id)}>
                        {p.name}
                      </button>
                      <p className="text-sm text-slate-500">{p.model}</p>
                      <p className="text-sm text-slate-500">{p.location}</p>
                      <p className="text-sm text-slate-600">
                        ★ {ratingText(p.rating)}
                        {typeof p.distance === "number" ? ` · ${formatDistance(p.distance)}` : ""}
                      </p>
                    </div>
                    {p.isAvailable ? (
                      <Link to={selectHref(p.id)} className="btn-primary">
                        Select
                      </Link>
                    ) : (
                      <span className="badge bg-red-100 text-red-800">Busy</span>
                    )}
                  </div>
                </li>
              ))}
            </ul>
            <PageLinks search={location.search} page={data.page} pageCount={data.pageCount} />
          </section>
        </div>
      ) : (
        <>
          <p className="mt-6 text-sm text-slate-500" data-testid="results-count">
            {data.total} printer(s) found
          </p>
          <div className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {printers.map((p) => (
              <PrinterCard key={p.id} printer={p} selectHref={selectHref(p.id)} />
            ))}
          </div>
          <PageLinks search={location.search} page={data.page} pageCount={data.pageCount} />
        </>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

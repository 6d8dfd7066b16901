import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { Form } from "~/components/form";
import { Link } from "~/components/link";
import { useState } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PrinterCard, PrinterCardSkeleton } from "~/components/printer-card";
import {
  FilterSelect,
  HiddenParams,
  LocationNotice,
  RadiusSelect,
  selectPrinterHref,
  SortSelect,
  toMapPrinter,
  ViewTabs,
} from "~/components/printer-filters";
import { PageLinks } from "~/components/page-links";
import { PrinterMap } from "~/components/printer-map";
import { COLOR_NAMES, PRINTERS_PAGE_MATERIALS } from "~/domain/materials";
import { isDesignCompatible } from "~/domain/printer-fit";
import { type CardPrinter, DEFAULT_PAGE_SIZE, pageParam, type PrinterSort, sortParam } from "~/domain/printer-listing";
import { findOwnDraft } from "~/services/designs/drafts.server";
import { canonicalColor, canonicalMaterial, numberParam, quoteEachPrinter } from "~/services/printers/search.server";
import { useIsLoading } from "~/utils/misc-react";
import { readPrinterSearch, searchForPage } from "./printer-search.server";
import { formatGrams } from "~/domain/grams";

export const meta: MetaFunction = () => [{ title: "Find Local 3D Printers | Printnear" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const ask = await readPrinterSearch(request);
  const { q, user, locationText } = ask;
  // The signed-in customer's draft; anyone else's id is ignored, so it reveals nothing.
  const draft = await findOwnDraft(user, numberParam(q, "jobId"));
  const design = {
    material: canonicalMaterial(q.get("material")),
    color: canonicalColor(q.get("color")),
    weight: numberParam(q, "weight"),
    minX: numberParam(q, "minX"),
    minY: numberParam(q, "minY"),
    minZ: numberParam(q, "minZ"),
  };
  const hasDesign = Boolean(design.material || design.color || design.weight !== null);
  const filtered = hasDesign || Boolean(design.minX || design.minY || design.minZ);
  const weightGrams = design.weight ?? draft?.estimatedWeightGrams ?? null;
  const available = q.get("status") === "available";
  const page = pageParam(numberParam(q, "page"));
  const { result, filters, listing } = await searchForPage(ask, {
    material: design.material,
    color: design.color,
    available,
    minX: design.minX,
    minY: design.minY,
    minZ: design.minZ,
    weightGrams,
    sort: sortParam(q.get("sort")) ?? (hasDesign && weightGrams !== null && !locationText && !user?.zipCode ? "price" : null),
    limit: DEFAULT_PAGE_SIZE,
    offset: (page - 1) * DEFAULT_PAGE_SIZE,
  });
  // Each printer's own rate through the one price engine, with the draft's colours and time when there is one.
  const quotes =
    weightGrams === null
      ? {}
      : quoteEachPrinter(result.printers, {
          weightGrams,
          colors: draft?.numberOfColors,
          printTimeMinutes: draft?.printTimeMinutes,
        });
  return {
    design: { ...design, weightGrams },
    hasDesign,
    filtered,
    draft: draft ? { id: draft.id, fileName: draft.fileName } : null,
    filters: { ...filters, status: available ? "available" : "all" },
    view: q.get("view") === "map" ? ("map" as const) : ("grid" as const),
    ...listing,
    sort: result.sort,
    page,
    pageCount: Math.max(1, Math.ceil(result.total / DEFAULT_PAGE_SIZE)),
    quotes,
  };
}

export default function PrintersPage() {
  const data = useLoaderData<typeof loader>();
  const { design, hasDesign, filtered, draft, filters, view, total, origin, quotes } = data;
  const location = useLocation();
  const loading = useIsLoading("/printers");
  const [selectedId, setSelectedId] = useState<number | null>(null);

  // The server already matched; the page checks again with the same domain rule.
  const fitDesign = { ...design, weightGrams: design.weightGrams };
  const printers = filtered
    ? data.printers.filter((p) => isDesignCompatible({ ...p, inventory: p.filamentInventory }, fitDesign).compatible)
    : data.printers;
  const selectHref = (p: CardPrinter) => selectPrinterHref(p.id, draft?.id);
  const sortOptions: PrinterSort[] = origin ? ["distance", "price", "rating"] : ["price", "rating"];
  const keep = {
    weight: design.weight,
    jobId: draft?.id,
    minX: design.minX,
    minY: design.minY,
    minZ: design.minZ,
    view: view === "map" ? "map" : null,
  };

  return (
    <div className="container-page py-8">
      {hasDesign ? (
        <div
          className="mb-6 rounded-lg border border-green-200 bg-green-50 p-4 text-green-900"
          data-testid="design-banner"
          role="status"
        >
          <p className="font-semibold">Design Uploaded Successfully!</p>
          <div className="mt-2 flex flex-wrap gap-2">
            {design.material ? <span className="badge bg-white text-green-800">{design.material}</span> : null}
            {design.color ? <span className="badge bg-white text-green-800">{design.color}</span> : null}
            {design.weightGrams !== null ? (
              <span className="badge bg-white text-green-800">{formatGrams(design.weightGrams)} g</span>
            ) : null}
          </div>
          <p className="mt-2 text-sm">Found {total} compatible printer(s) in your area</p>
        </div>
      ) : null}

      <h1 className="text-2xl font-bold">Find Local 3D Printers</h1>
      <p className="text-slate-600">
        {hasDesign
          ? "Compatible printers for your uploaded design"
          : "Printers near you, with their materials, filament in stock and prices."}
      </p>
      {draft ? <p className="mt-1 text-sm text-slate-500">Design: {draft.fileName}</p> : null}

      <Form method="get" className="card mt-6 grid gap-4 p-4 sm:grid-cols-2 lg:grid-cols-6" aria-label="Printer filters">
        <HiddenParams values={keep} />
        <div className="lg:col-span-2">
          <label className="label" htmlFor="location">
            Location
          </label>
          <input
            id="location"
            name="location"
            defaultValue={filters.location}
            placeholder="City, state, or zip code"
            className="input"
          />
        </div>
        <RadiusSelect value={filters.radius} />
        <FilterSelect
          name="material"
          label="Material"
          defaultValue={design.material ?? "all"}
          allLabel="All Materials"
          options={withCurrent(PRINTERS_PAGE_MATERIALS, design.material)}
        />
        <FilterSelect
          name="color"
          label="Color"
          defaultValue={design.color ?? "all"}
          allLabel="All Colors"
          options={withCurrent(COLOR_NAMES, design.color)}
        />
        <FilterSelect
          name="status"
          label="Status"
          defaultValue={filters.status}
          allLabel="All Printers"
          options={[{ value: "available", label: "Available Only" }]}
        />
        <SortSelect value={data.sort} options={sortOptions} />
        <div className="flex items-end lg:col-span-4">
          <LocationNotice
            origin={origin}
            locationNotFound={data.locationNotFound}
            locationChoices={data.locationChoices}
            locationSuggestions={data.locationSuggestions}
            locationText={data.locationText}
            radiusMiles={data.filters.radius}
          />
        </div>
        <div className="flex items-end">
          <button type="submit" className="btn-primary w-full">
            Apply Filters
          </button>
        </div>
      </Form>

      <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
        <p className="font-medium" data-testid="results-count">
          {total} printer(s) found
          {filtered ? <span className="badge ml-2 bg-green-100 text-green-800">Design-Compatible</span> : null}
        </p>
        <ViewTabs search={location.search} view={view === "map" ? "map" : "list"} listLabel="Grid" />
      </div>

      {loading ? (
        <div className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-busy="true">
          {Array.from({ length: 6 }, (_, i) => (
            <PrinterCardSkeleton key={i} />
          ))}
        </div>
      ) : printers.length === 0 ? (
        <div className="card mt-4 p-10 text-center" data-testid="empty-state">
          <p className="text-lg font-semibold">{hasDesign || filtered ? "No compatible printers found" : "No printers found"}</p>
          <p className="mt-1 text-slate-600">Try another location, material or colour, or check back later.</p>
          <Link to="/printers" className="btn-primary mt-4">
            View All Printers
          </Link>
        </div>
      ) : (
        <>
          {view === "map" ? (
            <div className="mt-4">
              <PrinterMap
                printers={printers.map((p) => toMapPrinter(p, selectHref(p)))}
                tileUrl={data.tileUrl}
                selectedId={selectedId}
                onSelectedChange={setSelectedId}
                search={{ hidden: hiddenFor(location.search, ["location", "page"]), defaultValue: filters.location }}
              />
            </div>
          ) : null}
          <div className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {printers.map((p) => (
              <PrinterCard key={p.id} printer={p} selectHref={selectHref(p)} quote={quotes[p.id] ?? null} compatible={filtered} />
            ))}
          </div>
          <PageLinks search={location.search} page={data.page} pageCount={data.pageCount} />
          {filtered ? (
            <p className="mt-6 text-center">
              <Link to="/printers" className="btn-secondary">
                View All Printers
              </Link>
            </p>
          ) : null}
        </>
      )}
    </div>
  );
}

function withCurrent(options: readonly string[], current: string | null): string[] {
  return current && !options.includes(current) ? [...options, current] : [...options];
}

function hiddenFor(search: string, drop: string[]): Record<string, string> {
  const params = new URLSearchParams(search);
  for (const key of drop) params.delete(key);
  return Object.fromEntries(params);
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

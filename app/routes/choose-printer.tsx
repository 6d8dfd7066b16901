import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Form } from "~/components/form";
import { Link } from "~/components/link";
import { useState } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PrinterCard } from "~/components/printer-card";
import {
  FilterSelect,
  HiddenParams,
  LocationNotice,
  RadiusSelect,
  selectPrinterHref,
  toMapPrinter,
} from "~/components/printer-filters";
import { PrinterMap } from "~/components/printer-map";
import { UPLOAD_MATERIALS } from "~/domain/materials";
import { type CardPrinter } from "~/domain/printer-listing";
import { findOwnDraft } from "~/services/designs/drafts.server";
import { canonicalMaterial, numberParam, quoteEachPrinter } from "~/services/printers/search.server";
import { readPrinterSearch, searchForPage } from "./printer-search.server";
import { formatGrams } from "~/domain/grams";
import { copiesText } from "~/domain/design-scale";

/** The location filter's places, offered as suggestions. */
const NEARBY_PLACES = ["Berthoud, CO", "Loveland, CO", "Fort Collins, CO"];

export const meta: MetaFunction = () => [{ title: "Choose a Printer | Printnear" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const ask = await readPrinterSearch(request);
  const { q, user } = ask;
  const draftId = numberParam(q, "draftId");
  // Only the signed-in customer's own draft shapes the list; another id is treated as no draft.
  const draft = await findOwnDraft(user, draftId);
  const materialParam = q.get("material");
  const material = materialParam === null ? (draft?.material ?? null) : canonicalMaterial(materialParam);
  const { result, filters, listing } = await searchForPage(ask, {
    search: q.get("search"),
    material,
    minX: draft?.boundingBoxX,
    minY: draft?.boundingBoxY,
    minZ: draft?.boundingBoxZ,
    // Stock of the draft's material and colour must cover every copy, as the range on /upload counts them.
    color: draft && material === draft.material ? draft.filamentColor : null,
    weightGrams: draft && material === draft.material ? draft.estimatedWeightGrams : null,
    notOwnerId: user?.id,
    limit: 100,
  });
  const quotes = draft
    ? quoteEachPrinter(result.printers, {
        weightGrams: draft.estimatedWeightGrams,
        colors: draft.numberOfColors,
        printTimeMinutes: draft.printTimeMinutes,
        quantity: draft.quantity,
      })
    : {};
  return {
    draft: draft
      ? {
          id: draft.id,
          fileName: draft.fileName,
          material: draft.material,
          color: draft.filamentColor,
          weightGrams: draft.estimatedWeightGrams,
          quantity: draft.quantity,
        }
      : null,
    askedDraftId: draftId,
    filters: { ...filters, search: q.get("search") ?? "", material: material ?? "all" },
    ...listing,
    quotes,
  };
}

export default function ChoosePrinter() {
  const data = useLoaderData<typeof loader>();
  const { draft, filters, printers, quotes } = data;
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const selectHref = (p: CardPrinter) => selectPrinterHref(p.id, draft?.id);

  return (
    <div className="container-page py-8">
      <h1 className="text-2xl font-bold">Choose a Printer</h1>
      {draft ? (
        <p className="text-slate-600">
          For <span className="font-medium">{draft.fileName}</span> ({copiesText(draft.quantity)}, {draft.material} {draft.color},{" "}
          {formatGrams(draft.weightGrams)} g). Prices below are this design's total at each printer's rate.
        </p>
      ) : (
        <p className="text-slate-600">
          {data.askedDraftId ? "We couldn't find that draft in your saved prints. " : ""}
          Pick a printer, then{" "}
          <Link to="/upload" className="text-brand-700 underline">
            upload your design
          </Link>
          .
        </p>
      )}

      <Form method="get" className="card mt-6 grid gap-4 p-4 sm:grid-cols-2 lg:grid-cols-5" aria-label="Printer filters">
        <HiddenParams values={{ draftId: draft?.id ?? data.askedDraftId }} />
        <div>
          <label className="label" htmlFor="search">
            Search
          </label>
          <input
            id="search"
            name="search"
            type="search"
            defaultValue={filters.search}
            placeholder="Printer, model or place"
            className="input"
          />
        </div>
        <FilterSelect
          name="material"
          label="Material"
          defaultValue={filters.material}
          allLabel="All Materials"
          options={UPLOAD_MATERIALS}
        />
        <div>
          <label className="label" htmlFor="location">
            Location
          </label>
          <input
            id="location"
            name="location"
            list="nearby-places"
            defaultValue={filters.location}
            placeholder="City, state, or ZIP code"
            className="input"
          />
          <datalist id="nearby-places">
            {NEARBY_PLACES.map((place) => (
              <option key={place} value={place} />
            ))}
          </datalist>
        </div>
        <RadiusSelect value={filters.radius} />
        <div className="flex items-end">
          <button type="submit" className="btn-primary w-full">
            Search
          </button>
        </div>
        <div className="sm:col-span-2 lg:col-span-5">
          <LocationNotice
            origin={data.origin}
            locationNotFound={data.locationNotFound}
            locationChoices={data.locationChoices}
            locationSuggestions={data.locationSuggestions}
            locationText={data.locationText}
            radiusMiles={filters.radius}
          />
        </div>
      </Form>

      <p className="mt-6 text-sm text-slate-500" data-testid="results-count">
        {data.total} printer(s) found
      </p>
      {printers.length === 0 ? (
        <div className="card mt-3 p-10 text-center" data-testid="empty-state">
          <p className="text-lg font-semibold">No printers found</p>
          <p className="mt-1 text-slate-600">Try another search, material or location.</p>
          <Link
            to={draft ? `/choose-printer?draftId=${draft.id}&material=all` : "/choose-printer"}
            className="btn-secondary mt-4"
          >
            Clear filters
          </Link>
        </div>
      ) : (
        <div className="mt-3 grid gap-6 lg:grid-cols-5">
          <div className="grid content-start gap-4 sm:grid-cols-2 lg:col-span-3">
            {printers.map((p) => (
              <PrinterCard key={p.id} printer={p} selectHref={selectHref(p)} quote={quotes[p.id] ?? null} />
            ))}
          </div>
          <div className="lg:col-span-2">
            <div className="lg:sticky lg:top-20">
              <PrinterMap
                printers={printers.map((p) => toMapPrinter(p, selectHref(p)))}
                tileUrl={data.tileUrl}
                selectedId={selectedId}
                onSelectedChange={setSelectedId}
                heightPx={520}
              />
            </div>
          </div>
        </div>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

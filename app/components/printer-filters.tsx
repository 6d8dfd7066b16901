// Pieces of the printer filter cards shared by /browse, /printers and /choose-printer.
import { useLocation } from "@remix-run/react";
import { Link } from "./link";
import { withParams } from "./page-links";
import { formatPricePerGram } from "~/domain/pricing";
import { RADIUS_CHOICES_MILES, type CardPrinter, type PrinterSort, type SearchOrigin } from "~/domain/printer-listing";
import type { MapPrinter } from "./printer-map";

export const SORT_LABELS: Record<PrinterSort, string> = {
  distance: "Nearest first",
  price: "Lowest price",
  rating: "Highest rated",
  newest: "Newest",
};

/** Hidden inputs that carry query values through a GET form. */
export function HiddenParams({ values }: { values: Record<string, string | number | null | undefined> }) {
  return (
    <>
      {Object.entries(values).map(([name, value]) =>
        value === null || value === undefined || value === "" ? null : (
          <input key={name} type="hidden" name={name} value={String(value)} />
        ),
      )}
    </>
  );
}

/** A choice in a FilterSelect: a plain value shows as itself. */
export type FilterOption = string | { value: string | number; label: string };

/** A labelled <select> of a GET filter form; allLabel adds a first choice with the value "all". */
export function FilterSelect({
  name,
  id = name,
  label,
  defaultValue,
  allLabel,
  options,
}: {
  name: string;
  id?: string;
  label: string;
  defaultValue: string;
  allLabel?: string;
  options: readonly FilterOption[];
}) {
  return (
    <div>
      <label className="label" htmlFor={id}>
        {label}
      </label>
      <select id={id} name={name} defaultValue={defaultValue} className="input">
        {allLabel ? <option value="all">{allLabel}</option> : null}
        {options.map((option) => {
          const { value, label: text } = typeof option === "string" ? { value: option, label: option } : option;
          return (
            <option key={value} value={value}>
              {text}
            </option>
          );
        })}
      </select>
    </div>
  );
}

export function RadiusSelect({ value, id = "radius" }: { value: number; id?: string }) {
  return (
    <FilterSelect
      name="radius"
      id={id}
      label="Distance"
      defaultValue={String(value)}
      options={RADIUS_CHOICES_MILES.map((miles) => ({ value: miles, label: `Within ${miles} mi` }))}
    />
  );
}

export function SortSelect({ value, options, id = "sort" }: { value: PrinterSort; options: PrinterSort[]; id?: string }) {
  return (
    <FilterSelect
      name="sort"
      id={id}
      label="Sort by"
      defaultValue={value}
      options={options.map((sort) => ({ value: sort, label: SORT_LABELS[sort] }))}
    />
  );
}

/** The current page's address with another location, from page 1: a link that re-runs the search. */
function withLocation(search: string, place: string): string {
  const params = new URLSearchParams(search);
  params.set("location", place);
  params.delete("page");
  params.delete("offset");
  return `?${params.toString()}`;
}

/** Where the search is centred, or why it is not (with the places the person may have meant). */
export function LocationNotice({
  origin,
  locationNotFound,
  locationChoices = [],
  locationSuggestions = [],
  locationText,
  radiusMiles,
}: {
  origin: SearchOrigin | null;
  locationNotFound: boolean;
  locationChoices?: string[];
  locationSuggestions?: string[];
  locationText: string;
  radiusMiles: number | null;
}) {
  const { search } = useLocation();
  if (locationNotFound) {
    const places = locationChoices.length > 0 ? locationChoices : locationSuggestions;
    return (
      <div
        role="status"
        className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
        data-testid="location-notice"
      >
        {locationChoices.length > 0 ? (
          <p>“{locationText}” is in more than one state. Which one do you mean?</p>
        ) : (
          <p>
            We couldn't find “{locationText}”.{" "}
            {locationSuggestions.length > 0
              ? "Did you mean one of these?"
              : "Try a city and state (Loveland, CO) or a 5-digit ZIP code."}
          </p>
        )}
        {places.length > 0 ? (
          <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1" data-testid="location-choices">
            {places.map((place) => (
              <li key={place}>
                <Link to={withLocation(search, place)} className="font-medium underline">
                  {place}
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    );
  }
  if (!origin) return null;
  return (
    <p role="status" className="text-sm text-slate-600" data-testid="location-notice">
      Within {radiusMiles} mi of <span className="font-medium">{origin.label}</span>
      {origin.source === "profile" ? " (the ZIP code in your profile)" : ""}.
    </p>
  );
}

/** Where a printer's Select goes: on to submit the draft there, or to upload a design for it. */
export function selectPrinterHref(printerId: number, draftId?: number | null): string {
  return draftId ? `/submit-print?printerId=${printerId}&draftId=${draftId}` : `/upload?printer=${printerId}`;
}

export function toMapPrinter(printer: CardPrinter, selectHref: string): MapPrinter {
  return {
    id: printer.id,
    name: printer.name,
    model: printer.model,
    owner: { firstName: printer.owner.firstName, lastName: printer.owner.lastName },
    location: printer.location,
    materials: printer.materials,
    priceText: formatPricePerGram(printer.ratePerKgCents),
    isAvailable: printer.isAvailable,
    latitude: printer.latitude,
    longitude: printer.longitude,
    selectHref,
  };
}

/** The list/grid and map switch: plain links (?view=map), so it works without JavaScript. */
export function ViewTabs({ search, view, listLabel }: { search: string; view: "list" | "map"; listLabel: string }) {
  const tab = (active: boolean) =>
    `rounded-md px-4 py-1.5 text-sm font-medium ${active ? "bg-white text-slate-900 shadow" : "text-slate-600 hover:text-slate-900"}`;
  return (
    <nav className="flex gap-1 rounded-lg bg-slate-100 p-1" aria-label="View">
      <Link
        to={withParams(search, { view: null, page: null })}
        aria-current={view === "list" ? "page" : undefined}
        className={tab(view === "list")}
      >
        {listLabel}
      </Link>
      <Link
        to={withParams(search, { view: "map", page: null })}
        aria-current={view === "map" ? "page" : undefined}
        className={tab(view === "map")}
      >
        Map
      </Link>
    </nav>
  );
}

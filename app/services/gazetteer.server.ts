// Offline US gazetteer (docs/decisions/003), server-only so the multi-megabyte `zipcodes` data never reaches the browser.

import { createRequire } from "node:module";
import type { LatLon } from "~/domain/geo";

interface ZipRecord {
  zip: string;
  latitude: number;
  longitude: number;
  city: string;
  state: string;
  country: string;
}

interface ZipcodesApi {
  codes: Record<string, ZipRecord>;
  lookup(zip: string | number): ZipRecord | undefined;
  lookupByName(city: string, state: string): ZipRecord[];
}

// `zipcodes` is untyped CommonJS; require() with this typed slice of its API keeps strict tsc clean without a .d.ts.
const zipcodes = createRequire(import.meta.url)("zipcodes") as ZipcodesApi;

export interface ResolvedLocation extends LatLon {
  city: string;
  /** two-letter USPS code */
  state: string;
  /** the ZIP searched for, or for a city the ZIP taken as its centre */
  zip: string;
  /** "Loveland, CO 80537" for a ZIP, "Loveland, CO" for a city */
  label: string;
}

const STATE_NAMES: Record<string, string> = {
  ALABAMA: "AL",
  ALASKA: "AK",
  ARIZONA: "AZ",
  ARKANSAS: "AR",
  CALIFORNIA: "CA",
  COLORADO: "CO",
  CONNECTICUT: "CT",
  DELAWARE: "DE",
  "DISTRICT OF COLUMBIA": "DC",
  FLORIDA: "FL",
  GEORGIA: "GA",
  HAWAII: "HI",
  IDAHO: "ID",
  ILLINOIS: "IL",
  INDIANA: "IN",
  IOWA: "IA",
  KANSAS: "KS",
  KENTUCKY: "KY",
  LOUISIANA: "LA",
  MAINE: "ME",
  MARYLAND: "MD",
  MASSACHUSETTS: "MA",
  MICHIGAN: "MI",
  MINNESOTA: "MN",
  MISSISSIPPI: "MS",
  MISSOURI: "MO",
  MONTANA: "MT",
  NEBRASKA: "NE",
  NEVADA: "NV",
  "NEW HAMPSHIRE": "NH",
  "NEW JERSEY": "NJ",
  "NEW MEXICO": "NM",
  "NEW YORK": "NY",
  "NORTH CAROLINA": "NC",
  "NORTH DAKOTA": "ND",
  OHIO: "OH",
  OKLAHOMA: "OK",
  OREGON: "OR",
  PENNSYLVANIA: "PA",
  "RHODE ISLAND": "RI",
  "SOUTH CAROLINA": "SC",
  "SOUTH DAKOTA": "SD",
  TENNESSEE: "TN",
  TEXAS: "TX",
  UTAH: "UT",
  VERMONT: "VT",
  VIRGINIA: "VA",
  WASHINGTON: "WA",
  "WEST VIRGINIA": "WV",
  WISCONSIN: "WI",
  WYOMING: "WY",
  "PUERTO RICO": "PR",
  "WASHINGTON DC": "DC",
  "WASHINGTON D.C.": "DC",
};
const STATE_CODES = new Set(Object.values(STATE_NAMES));

/** "Colorado", "co", "CO." → "CO"; null when it is not a US state. */
export function normalizeState(text: string): string | null {
  const upper = text.trim().toUpperCase().replace(/\.$/, "").replace(/\s+/g, " ");
  if (STATE_CODES.has(upper)) return upper;
  return STATE_NAMES[upper] ?? null;
}

function isUs(record: ZipRecord | undefined): record is ZipRecord {
  return record !== undefined && record.country === "US" && Number.isFinite(record.latitude) && Number.isFinite(record.longitude);
}

function fromZip(zip: string): ResolvedLocation | null {
  const record = zipcodes.lookup(zip);
  if (!isUs(record)) return null;
  return {
    latitude: record.latitude,
    longitude: record.longitude,
    city: record.city,
    state: record.state,
    zip: record.zip,
    label: `${record.city}, ${record.state} ${record.zip}`,
  };
}

// The data set spells "Saint", "Fort", "Mount" in full; people type the abbreviations.
const CITY_ABBREVIATIONS: Record<string, string> = { ST: "SAINT", FT: "FORT", MT: "MOUNT" };

function cityVariants(city: string): string[] {
  const cleaned = city.trim().replace(/\s+/g, " ");
  const [first, ...rest] = cleaned.split(" ");
  const expanded = CITY_ABBREVIATIONS[(first ?? "").toUpperCase().replace(/\.$/, "")];
  return expanded && rest.length > 0 ? [cleaned, [expanded, ...rest].join(" ")] : [cleaned];
}

function summarise(records: ZipRecord[]): ResolvedLocation | null {
  const usable = records.filter(isUs);
  if (usable.length === 0) return null;
  // The medoid ZIP stays downtown where PO-box ZIPs cluster; a mean is dragged by outlying or mis-located ZIPs.
  const cos = Math.cos((usable[0]!.latitude * Math.PI) / 180);
  const spread = (a: ZipRecord) =>
    usable.reduce((sum, b) => sum + Math.hypot(a.latitude - b.latitude, (a.longitude - b.longitude) * cos), 0);
  const center = usable.reduce((best, r) => (spread(r) < spread(best) ? r : best));
  return {
    latitude: center.latitude,
    longitude: center.longitude,
    city: center.city,
    state: center.state,
    zip: center.zip,
    label: `${center.city}, ${center.state}`,
  };
}

function fromCityState(city: string, state: string): ResolvedLocation | null {
  if (!city.trim()) return null;
  for (const variant of cityVariants(city)) {
    const found = summarise(zipcodes.lookupByName(variant, state));
    if (found) return found;
  }
  return null;
}

let cityIndex: Map<string, ZipRecord[]> | null = null;

// Built on first use only: a bare city name needs a scan of every US ZIP.
function citiesNamed(city: string): ZipRecord[] {
  if (!cityIndex) {
    cityIndex = new Map();
    for (const record of Object.values(zipcodes.codes)) {
      if (!isUs(record)) continue;
      const key = record.city.toUpperCase();
      const list = cityIndex.get(key);
      if (list) list.push(record);
      else cityIndex.set(key, [record]);
    }
  }
  for (const variant of cityVariants(city)) {
    const list = cityIndex.get(variant.toUpperCase());
    if (list) return list;
  }
  return [];
}

/** "Fort Collins CO", "Santa Fe New Mexico" → city and state split at the longest trailing state name. */
function splitTrailingState(text: string): { city: string; state: string } | null {
  const words = text.trim().split(/\s+/);
  for (let take = Math.min(3, words.length - 1); take >= 1; take--) {
    const state = normalizeState(words.slice(-take).join(" "));
    if (state) return { city: words.slice(0, -take).join(" "), state };
  }
  return null;
}

const ZIP_PATTERN = /\b(\d{5})(?:-\d{4})?\b/g;
const COUNTRY_SUFFIX = /,?\s*(USA|U\.S\.A\.|US|U\.S\.|United States(?: of America)?)\s*$/i;

/** ZIP(+4), "City, ST", "City ST", "City, State", or an address (its ZIP wins); a bare city only if one state has it. */
export function resolveLocation(text: string | null | undefined): ResolvedLocation | null {
  if (typeof text !== "string") return null;
  const input = text.trim().slice(0, 200).replace(COUNTRY_SUFFIX, "").trim();
  if (!input) return null;

  // The last ZIP-shaped number wins: a five-digit house number comes first in an address.
  const zips = [...input.matchAll(ZIP_PATTERN)].map((m) => m[1]!);
  for (const zip of zips.reverse()) {
    const found = fromZip(zip);
    if (found) return found;
  }

  const withoutZip = input.replace(ZIP_PATTERN, " ").replace(/\s+/g, " ");
  const parts = withoutZip
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) return null;

  const last = parts[parts.length - 1]!;
  const lastAsState = normalizeState(last);
  if (lastAsState && parts.length >= 2) {
    return fromCityState(parts[parts.length - 2]!, lastAsState);
  }

  // "Loveland CO" alone, or as the last part of "123 Main St, Loveland CO".
  const split = splitTrailingState(last);
  if (split) {
    const found = fromCityState(split.city, split.state);
    if (found) return found;
  }

  if (parts.length === 1 && !lastAsState) {
    const records = citiesNamed(last);
    const states = new Set(records.map((r) => r.state));
    if (states.size === 1) return summarise(records);
  }
  return null;
}

/** Coordinates for a 5-digit ZIP (a signed-in user's zipCode), or null. */
export function lookupZip(zip: string | null | undefined): ResolvedLocation | null {
  if (typeof zip !== "string") return null;
  const match = /^\s*(\d{5})(?:-\d{4})?\s*$/.exec(zip);
  return match ? fromZip(match[1]!) : null;
}

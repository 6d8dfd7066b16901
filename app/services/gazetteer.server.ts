// Offline US gazetteer (docs/decisions/003), server-only so the multi-megabyte `zipcodes` data never reaches the browser.

import { createRequire } from "node:module";
import { US_STATES } from "~/domain/address";
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

// state names to codes, from the one state list, plus the ways people write DC
const STATE_NAMES: Record<string, string> = {
  ...Object.fromEntries(Object.entries(US_STATES).map(([code, name]) => [name.toUpperCase(), code])),
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
/** Distinct city names (upper case) by first letter, for suggestions. */
let namesByLetter: Map<string, string[]> | null = null;

// Built on first use only: a bare city name needs a scan of every US ZIP.
function cities(): Map<string, ZipRecord[]> {
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
  return cityIndex;
}

function citiesNamed(city: string): ZipRecord[] {
  for (const variant of cityVariants(city)) {
    const list = cities().get(variant.toUpperCase());
    if (list) return list;
  }
  return [];
}

function nameIndex(): Map<string, string[]> {
  if (!namesByLetter) {
    namesByLetter = new Map();
    for (const name of cities().keys()) {
      const letter = name[0] ?? "";
      const list = namesByLetter.get(letter);
      if (list) list.push(name);
      else namesByLetter.set(letter, [name]);
    }
  }
  return namesByLetter;
}

/** Levenshtein distance, or limit + 1 as soon as it is certain to exceed limit. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}

/** One "City, ST" per state that has the city, the state with the most ZIPs (the larger place) first. */
function labelsByState(records: ZipRecord[], state: string | null): string[] {
  const byState = new Map<string, ZipRecord[]>();
  for (const record of records) {
    if (state && record.state !== state) continue;
    const list = byState.get(record.state);
    if (list) list.push(record);
    else byState.set(record.state, [record]);
  }
  return [...byState.entries()]
    .sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))
    .map(([st, list]) => `${list[0]!.city}, ${st}`);
}

const MAX_SUGGESTIONS = 6;

/** The nearest city names to a misspelt one (same first letter), as "City, ST" labels, closest first. */
export function suggestPlaces(city: string, state: string | null = null): string[] {
  const wanted = city.trim().toUpperCase().replace(/\s+/g, " ");
  if (wanted.length < 3) return [];
  const limit = wanted.length <= 5 ? 1 : 2;
  const candidates = new Set<string>();
  for (const variant of cityVariants(wanted)) {
    for (const name of nameIndex().get(variant[0]!) ?? []) candidates.add(name);
  }
  const scored: { name: string; distance: number; zips: number }[] = [];
  for (const name of candidates) {
    const distance = Math.min(...cityVariants(wanted).map((v) => editDistance(v.toUpperCase(), name, limit)));
    if (distance > limit) continue;
    const records = cities().get(name)!;
    const zips = state ? records.filter((r) => r.state === state).length : records.length;
    if (zips > 0) scored.push({ name, distance, zips });
  }
  scored.sort((a, b) => a.distance - b.distance || b.zips - a.zips || a.name.localeCompare(b.name));
  const labels: string[] = [];
  for (const { name } of scored) {
    for (const label of labelsByState(cities().get(name)!, state)) {
      if (labels.length < MAX_SUGGESTIONS) labels.push(label);
    }
  }
  return labels;
}

export interface PlaceLookup {
  place: ResolvedLocation | null;
  /** a bare city name found in several states: one "City, ST" per state */
  choices: string[];
  /** nothing found: the nearest "City, ST" names */
  suggestions: string[];
}

/** resolveLocation, and when it finds nothing, what the person may have meant. */
export function lookupPlace(text: string | null | undefined): PlaceLookup {
  const place = resolveLocation(text);
  if (place || typeof text !== "string") return { place, choices: [], suggestions: [] };
  const input = text.trim().slice(0, 200).replace(COUNTRY_SUFFIX, "").trim();
  if (!input || /\d/.test(input)) return { place: null, choices: [], suggestions: [] };
  const parts = input
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  const last = parts[parts.length - 1] ?? "";
  const lastAsState = normalizeState(last);
  let city = last;
  let state: string | null = null;
  if (lastAsState && parts.length >= 2) {
    city = parts[parts.length - 2]!;
    state = lastAsState;
  } else if (parts.length === 1 && !lastAsState) {
    const choices = labelsByState(citiesNamed(last), null);
    if (choices.length > 1) return { place: null, choices, suggestions: [] };
    const split = splitTrailingState(last);
    if (split) {
      city = split.city;
      state = split.state;
    }
  }
  return { place: null, choices: [], suggestions: suggestPlaces(city, state) };
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

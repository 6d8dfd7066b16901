// The one printer search behind /browse, /printers, /choose-printer and GET /api/printers.
// Filters, the radius and the order run in SQL on an R*Tree prefilter; only the page's rows come back.
import { sql, type SQL } from "drizzle-orm";
import { boundingBox, EARTH_RADIUS_MILES, PUBLIC_COORDINATE_SLACK, type LatLon } from "~/domain/geo";
import { COLOR_NAMES, findMaterial } from "~/domain/materials";
import { minVolumeFilter } from "~/domain/printer-fit";
import { quotePrice, type QuoteInput } from "~/domain/pricing";
import {
  DEFAULT_PAGE_SIZE,
  DEFAULT_RADIUS_MILES,
  MAX_PAGE_SIZE,
  MAX_RADIUS_MILES,
  MAX_SEARCH_OFFSET,
  type DesignQuote,
  type PrinterJson,
  type PrinterSort,
  type SearchOrigin,
} from "~/domain/printer-listing";
import { getDb, type Database } from "~/utils/db.server";
import { lookupPlace, lookupZip } from "~/services/gazetteer.server";
import { escapeLike } from "~/services/like-pattern.server";
import { hydratePrinters } from "./records.server";

export { getPrinterJson, hydratePrinters, listOwnerPrinters, listOwnPrinters, serializePrinter } from "./records.server";

export const DEFAULT_MAP_TILE_URL = "https://tile.openstreetmap.org/{z}/{x}/{y}.png";

/** MAP_TILE_URL, so a deployment can point at its own tile server; OpenStreetMap's by default. */
export function mapTileUrl(): string {
  return process.env.MAP_TILE_URL?.trim() || DEFAULT_MAP_TILE_URL;
}

/** A non-negative number from the query string, or null when absent or not a number. */
export function numberParam(params: URLSearchParams, name: string): number | null {
  const raw = params.get(name)?.trim();
  if (!raw) return null;
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : null;
}

export interface PrinterSearchInput {
  /** a city, "City, ST", ZIP or address, resolved by the offline gazetteer */
  location?: string | null;
  /** used when location is blank: the signed-in user's zipCode */
  fallbackZip?: string | null;
  /** wins over location */
  point?: LatLon | null;
  radiusMiles?: number | null;
  material?: string | null;
  color?: string | null;
  /** true: available printers only; false or null: all */
  available?: boolean | null;
  minX?: number | null;
  minY?: number | null;
  minZ?: number | null;
  weightGrams?: number | null;
  search?: string | null;
  ownerId?: number | null;
  /** leaves out this user's own printers (Choose a Printer: nobody orders from themselves) */
  notOwnerId?: number | null;
  /** the signed-in user: printers they own keep their exact location and coordinates */
  viewerId?: number | null;
  sort?: PrinterSort | null;
  limit?: number | null;
  offset?: number | null;
}

export interface PrinterSearchResult {
  printers: PrinterJson[];
  /** every match, not only this page */
  total: number;
  origin: SearchOrigin | null;
  /** the location text was given but the gazetteer could not place it: no printers come back then */
  locationNotFound: boolean;
  /** a bare city name in several states: the "City, ST" to pick from */
  locationChoices: string[];
  /** a place not found: the nearest "City, ST" names */
  locationSuggestions: string[];
  radiusMiles: number | null;
  sort: PrinterSort;
}

/** rtree: the app's strategy. btree and scan exist for scripts/bench-printers.ts. */
export type SearchStrategy = "rtree" | "btree" | "scan";

/** One design's total at each printer's own rate, through the one price engine, by printer id. */
export function quoteEachPrinter(
  list: Pick<PrinterJson, "id" | "ratePerKgCents">[],
  design: Omit<QuoteInput, "ratePerKgCents">,
): Record<number, DesignQuote> {
  const quotes: Record<number, DesignQuote> = {};
  for (const printer of list) {
    const quote = quotePrice({ ...design, ratePerKgCents: printer.ratePerKgCents });
    quotes[printer.id] = { customerPays: quote.customerPays, printerProfit: quote.printerProfit, platformFee: quote.platformFee };
  }
  return quotes;
}

/** "petg" → "PETG", "all" or blank → null; an unknown name stays as typed (and matches nothing). */
export function canonicalMaterial(value: string | null | undefined): string | null {
  const text = value?.trim();
  if (!text || text.toLowerCase() === "all") return null;
  return findMaterial(text)?.name ?? text;
}

/** "red" → "Red", "all" or blank → null. */
export function canonicalColor(value: string | null | undefined): string | null {
  const text = value?.trim();
  if (!text || text.toLowerCase() === "all") return null;
  return COLOR_NAMES.find((c) => c.toLowerCase() === text.toLowerCase()) ?? text;
}

function positive(value: number | null | undefined): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

export interface ResolvedOrigin {
  origin: SearchOrigin | null;
  locationNotFound: boolean;
  locationChoices: string[];
  locationSuggestions: string[];
}

export function resolveOrigin(input: Pick<PrinterSearchInput, "point" | "location" | "fallbackZip">): ResolvedOrigin {
  const none = { locationNotFound: false, locationChoices: [], locationSuggestions: [] };
  if (input.point) return { origin: { ...input.point, label: "", source: "point" }, ...none };
  const text = input.location?.trim();
  if (text) {
    const { place, choices, suggestions } = lookupPlace(text);
    if (!place) return { origin: null, locationNotFound: true, locationChoices: choices, locationSuggestions: suggestions };
    return {
      origin: { latitude: place.latitude, longitude: place.longitude, label: place.label, source: "search" },
      ...none,
    };
  }
  const home = lookupZip(input.fallbackZip);
  if (home)
    return {
      origin: { latitude: home.latitude, longitude: home.longitude, label: home.label, source: "profile" },
      ...none,
    };
  return { origin: null, ...none };
}

/** The design filters as SQL, mirroring isDesignCompatible in app/domain/printer-fit.ts rule for rule. */
function designConditions(input: PrinterSearchInput): SQL[] {
  const where: SQL[] = [];
  const [small, mid, large] = minVolumeFilter(input.minX, input.minY, input.minZ);
  if (small > 0) where.push(sql`p.fit_small >= ${small}`);
  if (mid > 0) where.push(sql`p.fit_mid >= ${mid}`);
  if (large > 0) where.push(sql`p.fit_large >= ${large}`);

  const material = canonicalMaterial(input.material);
  const color = canonicalColor(input.color);
  const weight = positive(input.weightGrams);
  if (material) {
    where.push(sql`EXISTS (SELECT 1 FROM json_each(p.materials) AS m WHERE m.value = ${material} COLLATE NOCASE)`);
  }
  const stocked = (extra: SQL) =>
    sql`EXISTS (SELECT 1 FROM filament_inventory AS f WHERE f.printer_id = p.id AND f.grams > 0 AND f.grams >= ${weight} AND ${extra})`;
  if (color) {
    // A colour must be proven in stock: a printer without inventory rows does not qualify.
    where.push(
      stocked(
        material
          ? sql`f.material = ${material} COLLATE NOCASE AND f.color = ${color} COLLATE NOCASE`
          : sql`f.color = ${color} COLLATE NOCASE`,
      ),
    );
  } else if (material) {
    // No colour asked: a printer that keeps no inventory is judged by its materials list alone.
    where.push(
      sql`(NOT EXISTS (SELECT 1 FROM filament_inventory AS f0 WHERE f0.printer_id = p.id) OR ${stocked(sql`f.material = ${material} COLLATE NOCASE`)})`,
    );
  }
  return where;
}

interface CandidateRow {
  id: number;
  distance: number | null;
  total: number;
}

/** Finds printers; with a location, only those within the radius, nearest first unless another sort is asked. */
export async function searchPrinters(
  input: PrinterSearchInput,
  options: { db?: Database; strategy?: SearchStrategy } = {},
): Promise<PrinterSearchResult> {
  const db = options.db ?? (await getDb());
  const strategy = options.strategy ?? "rtree";
  const resolved = resolveOrigin(input);
  const { origin, locationNotFound } = resolved;
  const radiusMiles = origin ? Math.min(MAX_RADIUS_MILES, positive(input.radiusMiles) || DEFAULT_RADIUS_MILES) : null;
  const requested = input.sort ?? (origin ? "distance" : "rating");
  const sort: PrinterSort = requested === "distance" && !origin ? "rating" : requested;
  // A place that cannot be found never widens to every printer.
  if (locationNotFound) return { printers: [], total: 0, ...resolved, radiusMiles, sort };
  const limit = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(positive(input.limit) || DEFAULT_PAGE_SIZE)));
  const offset = Math.min(MAX_SEARCH_OFFSET, Math.floor(positive(input.offset)));

  let from = sql`printers AS p`;
  let distance = sql`NULL`;
  const where: SQL[] = [];
  if (origin && radiusMiles !== null) {
    // Distances run from the public (rounded) point, so neither the miles shown nor the radius
    // filter tell more than the map does; the box is widened by the rounding so no printer is lost.
    const exactBox = boundingBox(origin.latitude, origin.longitude, radiusMiles);
    const box = {
      minLat: exactBox.minLat - PUBLIC_COORDINATE_SLACK,
      maxLat: exactBox.maxLat + PUBLIC_COORDINATE_SLACK,
      minLon: exactBox.minLon - PUBLIC_COORDINATE_SLACK,
      maxLon: exactBox.maxLon + PUBLIC_COORDINATE_SLACK,
    };
    if (strategy === "rtree") {
      // CROSS JOIN pins the R*Tree as the outer loop: with fresh statistics SQLite may otherwise start from another index.
      from = sql`printers_rtree AS r CROSS JOIN printers AS p ON p.id = r.id`;
      where.push(
        sql`r.max_lat >= ${box.minLat} AND r.min_lat <= ${box.maxLat} AND r.max_lon >= ${box.minLon} AND r.min_lon <= ${box.maxLon}`,
      );
    } else if (strategy === "btree") {
      from = sql`printers AS p INDEXED BY printers_geo_idx`;
      where.push(sql`p.latitude BETWEEN ${box.minLat} AND ${box.maxLat} AND p.longitude BETWEEN ${box.minLon} AND ${box.maxLon}`);
    } else {
      where.push(sql`p.latitude IS NOT NULL AND p.longitude IS NOT NULL`);
    }
    const cosOrigin = Math.cos((origin.latitude * Math.PI) / 180);
    const lat = sql`(floor(p.latitude * 100 + 0.5) / 100.0)`;
    const lon = sql`(floor(p.longitude * 100 + 0.5) / 100.0)`;
    // Haversine, as geo.ts computes it, so SQL and the page agree to the last digit shown.
    distance = sql`(${2 * EARTH_RADIUS_MILES} * asin(min(1.0, sqrt(
      power(sin(radians(${lat} - ${origin.latitude}) / 2), 2) +
      ${cosOrigin} * cos(radians(${lat})) * power(sin(radians(${lon} - ${origin.longitude}) / 2), 2)))))`;
  }
  if (input.available) where.push(sql`p.is_available = 1`);
  if (input.ownerId) where.push(sql`p.owner_id = ${input.ownerId}`);
  if (input.notOwnerId) where.push(sql`p.owner_id <> ${input.notOwnerId}`);
  const search = input.search?.trim().slice(0, 100);
  if (search) {
    const like = `%${escapeLike(search)}%`;
    // the public place (city, state, ZIP), not the typed location: a search must not probe street addresses
    const place = sql`concat_ws(' ', concat_ws(', ', p.city, p.state), p.zip)`;
    where.push(
      sql`(p.name LIKE ${like} ESCAPE '\\' OR p.model LIKE ${like} ESCAPE '\\' OR ${place} LIKE ${like} ESCAPE '\\' OR p.description LIKE ${like} ESCAPE '\\')`,
    );
  }
  where.push(...designConditions(input));

  const order = {
    distance: sql`distance, id`,
    price: sql`rate, distance, id`,
    rating: sql`rating DESC NULLS LAST, reviews DESC, distance, id`,
    newest: sql`created DESC, id DESC`,
  }[sort];

  const candidates = sql`
    WITH c AS (
      SELECT p.id AS id, p.rate_per_kg_cents AS rate, p.rating AS rating, p.total_reviews AS reviews,
             p.created_at AS created, ${distance} AS distance
      FROM ${from}
      ${where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``}
    )`;
  const withinRadius = radiusMiles !== null ? sql`WHERE distance <= ${radiusMiles}` : sql``;
  const rows = await db.all<CandidateRow>(sql`${candidates}
    SELECT id, distance, count(*) OVER () AS total FROM c ${withinRadius}
    ORDER BY ${order}
    LIMIT ${limit} OFFSET ${offset}`);
  // A page past the end has no row to carry the window count, so count separately then.
  const total =
    rows.length > 0
      ? Number(rows[0]!.total)
      : offset > 0
        ? Number((await db.all<{ n: number }>(sql`${candidates} SELECT count(*) AS n FROM c ${withinRadius}`))[0]?.n ?? 0)
        : 0;
  const hydrated = await hydratePrinters(
    rows.map((r) => r.id),
    {
      db,
      distances: new Map(rows.map((r) => [r.id, r.distance])),
      viewerId: input.viewerId,
    },
  );
  return { printers: hydrated, total, ...resolved, radiusMiles, sort };
}

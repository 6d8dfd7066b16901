// Pure geography for "near me" sorting, location filters and the map; the ZIP/city lookup is in services/gazetteer.server.ts.

export interface LatLon {
  latitude: number;
  longitude: number;
}

export interface BoundingBox {
  minLat: number;
  maxLat: number;
  minLon: number;
  maxLon: number;
}

/** Mean Earth radius in statute miles. */
export const EARTH_RADIUS_MILES = 3958.8;

/** The map's constants (Leaflet + OpenStreetMap). */
export const MAP_DEFAULT_CENTER: LatLon = Object.freeze({ latitude: 40.3081, longitude: -105.0778 });
export const MAP_DEFAULT_ZOOM = 10;
export const MAP = Object.freeze({
  defaultCenter: MAP_DEFAULT_CENTER,
  defaultZoom: MAP_DEFAULT_ZOOM,
  markerSizePx: 25,
  selectedMarkerSizePx: 35,
  selectedZoom: 15,
  singlePrinterZoom: 14,
  fitPaddingPx: 20,
  /** the least room kept between an open popup and the map's edge */
  popupPaddingPx: 12,
  heightPx: 600,
});

const toRadians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance in miles. */
export function haversineMiles(a: LatLon, b: LatLon): number {
  const dLat = toRadians(b.latitude - a.latitude);
  const dLon = toRadians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRadians(a.latitude)) * Math.cos(toRadians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  // min() guards against h creeping past 1 through rounding for antipodal points.
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A box holding every point within radiusMiles: a cheap SQL prefilter before the exact haversine check. */
export function boundingBox(latitude: number, longitude: number, radiusMiles: number): BoundingBox {
  if (![latitude, longitude, radiusMiles].every(Number.isFinite) || radiusMiles < 0) {
    throw new RangeError("boundingBox needs finite coordinates and a non-negative radius");
  }
  const latDelta = (radiusMiles / EARTH_RADIUS_MILES) * (180 / Math.PI);
  const minLat = Math.max(-90, latitude - latDelta);
  const maxLat = Math.min(90, latitude + latDelta);
  // The box's widest point is at its edge nearest the pole, so use that latitude's cosine.
  const widest = Math.max(Math.abs(minLat), Math.abs(maxLat));
  const cos = Math.cos(toRadians(widest));
  if (cos <= 1e-9 || latDelta / cos >= 180) {
    return { minLat, maxLat, minLon: -180, maxLon: 180 };
  }
  const lonDelta = latDelta / cos;
  return {
    minLat,
    maxLat,
    minLon: Math.max(-180, longitude - lonDelta),
    maxLon: Math.min(180, longitude + lonDelta),
  };
}

/** 4.23 → "4.2 mi away"; whole miles from 100 on; "" for a missing distance. */
export function formatDistance(miles: number | null | undefined): string {
  if (typeof miles !== "number" || !Number.isFinite(miles) || miles < 0) return "";
  if (miles < 0.1) return "< 0.1 mi away";
  // made once: a NumberFormat per call (toLocaleString) showed in every printer list's render
  const text = (miles < 100 ? ONE_DECIMAL : WHOLE).format(miles);
  return `${text} mi away`;
}
const ONE_DECIMAL = new Intl.NumberFormat("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const WHOLE = new Intl.NumberFormat("en-US", { minimumFractionDigits: 0, maximumFractionDigits: 0 });

/** Parses stored latitude/longitude (decimal strings) into a point, or null when unusable. */
export function toLatLon(latitude: unknown, longitude: unknown): LatLon | null {
  const lat = typeof latitude === "string" ? Number(latitude.trim() || Number.NaN) : latitude;
  const lon = typeof longitude === "string" ? Number(longitude.trim() || Number.NaN) : longitude;
  if (typeof lat !== "number" || typeof lon !== "number") return null;
  if (!Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  return { latitude: lat, longitude: lon };
}

/**
 * Public coordinates have 2 decimals (about 1 km): enough for a map marker and a distance, not
 * enough to find a house. The rounding is floor(x·100 + 0.5)/100 in JavaScript and in SQL alike,
 * so IEEE arithmetic gives both the very same number.
 */
export function publicCoordinate(value: number): number {
  return Math.floor(value * 100 + 0.5) / 100;
}

/** Degrees a public coordinate may lie from the stored one (half a step, plus room for float error). */
export const PUBLIC_COORDINATE_SLACK = 0.006;

/** The place shown to everyone: "City, ST ZIP" from the gazetteer's columns, never the owner's free text (it may be a street address). */
export function publicLocation(p: {
  city: string | null;
  state: string | null;
  zip: string | null;
  latitude: number | null;
  longitude: number | null;
}): string {
  const text = [[p.city, p.state].filter(Boolean).join(", "), p.zip].filter(Boolean).join(" ");
  if (text) return text;
  if (p.latitude === null || p.longitude === null) return "";
  return `Near ${publicCoordinate(p.latitude).toFixed(2)}, ${publicCoordinate(p.longitude).toFixed(2)}`;
}

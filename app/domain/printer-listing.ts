// A printer as the pages, the cards and the JSON API read it, and the vocabulary of the printer
// search (sorts, radius choices, page sizes). Shared by services and components alike.
import type { LatLon } from "./geo";

export const PRINTER_SORTS = ["distance", "price", "rating", "newest"] as const;
export type PrinterSort = (typeof PRINTER_SORTS)[number];
/** The radius choices the search forms offer, in miles. */
export const RADIUS_CHOICES_MILES = [10, 25, 50, 100, 250] as const;
export const DEFAULT_RADIUS_MILES = 50;
export const MAX_RADIUS_MILES = 500;
export const DEFAULT_PAGE_SIZE = 60;
export const MAX_PAGE_SIZE = 500;
/** The furthest a search pages: the API refuses a larger offset, the pages clamp their page number. */
export const MAX_SEARCH_OFFSET = 100_000;

/** The page a search page shows for ?page=: a whole number from 1 to the furthest page. */
export function pageParam(value: number | null): number {
  if (value === null || !Number.isFinite(value)) return 1;
  const last = Math.floor(MAX_SEARCH_OFFSET / DEFAULT_PAGE_SIZE) + 1;
  return Math.min(last, Math.max(1, Math.floor(value)));
}

export function sortParam(value: string | null | undefined): PrinterSort | null {
  return (PRINTER_SORTS as readonly string[]).includes(value ?? "") ? (value as PrinterSort) : null;
}

/**
 * A printer as the pages and the API read it: the listing's fields, plus distance when a location was given.
 * Everyone sees the public location (`publicLocation`) and coordinates rounded to 2 decimals; only the
 * printer's owner, when the caller says who is looking (`viewerId`), gets the typed location and the
 * exact coordinates.
 */
export interface PrinterJson {
  id: number;
  ownerId: number;
  name: string;
  model: string;
  description: string | null;
  buildVolumeX: number;
  buildVolumeY: number;
  buildVolumeZ: number;
  materials: string[];
  /** dollars per gram as a decimal string, "0.12" */
  pricePerGram: string;
  ratePerKgCents: number;
  location: string;
  city: string | null;
  state: string | null;
  zip: string | null;
  /** decimal strings */
  latitude: string | null;
  longitude: string | null;
  isAvailable: boolean;
  rating: number | null;
  totalReviews: number;
  totalJobs: number;
  hourlyRate: string | null;
  imageUrl: string;
  owner: { id: number; firstName: string | null; lastName: string | null; rating: number | null; totalReviews: number };
  filamentInventory: { material: string; color: string; grams: number; inStock: boolean }[];
  /** miles from the searched point, two decimals */
  distance?: number;
  createdAt: string;
}

/** What a card, a map marker and the design check need: loaders send this much, not the whole record. */
export type CardPrinter = Pick<
  PrinterJson,
  | "id"
  | "name"
  | "model"
  | "owner"
  | "location"
  | "latitude"
  | "longitude"
  | "distance"
  | "isAvailable"
  | "rating"
  | "totalReviews"
  | "buildVolumeX"
  | "buildVolumeY"
  | "buildVolumeZ"
  | "materials"
  | "pricePerGram"
  | "ratePerKgCents"
  | "imageUrl"
  | "filamentInventory"
>;

export function toCardPrinter(p: PrinterJson): CardPrinter {
  return {
    id: p.id,
    name: p.name,
    model: p.model,
    owner: p.owner,
    location: p.location,
    latitude: p.latitude,
    longitude: p.longitude,
    distance: p.distance,
    isAvailable: p.isAvailable,
    rating: p.rating,
    totalReviews: p.totalReviews,
    buildVolumeX: p.buildVolumeX,
    buildVolumeY: p.buildVolumeY,
    buildVolumeZ: p.buildVolumeZ,
    materials: p.materials,
    pricePerGram: p.pricePerGram,
    ratePerKgCents: p.ratePerKgCents,
    imageUrl: p.imageUrl,
    filamentInventory: p.filamentInventory,
  };
}

/** What the owner's dashboard shows of each of their own printers: its exact place, never the public one. */
export type OwnPrinter = Pick<
  PrinterJson,
  | "id"
  | "name"
  | "model"
  | "location"
  | "isAvailable"
  | "ratePerKgCents"
  | "buildVolumeX"
  | "buildVolumeY"
  | "buildVolumeZ"
  | "materials"
  | "imageUrl"
  | "filamentInventory"
>;

/** One design's price at one printer, as the cards show it. */
export interface DesignQuote {
  customerPays: number;
  printerProfit: number;
  platformFee: number;
}

export interface SearchOrigin extends LatLon {
  label: string;
  source: "point" | "search" | "profile";
}

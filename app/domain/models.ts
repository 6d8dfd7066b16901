// Library and catalogue models: their vocabulary (sources, sorts, difficulties), what the pages
// and the API show of them, and the Print this Model estimate. Shared by services and components.
import type { LibraryLicense } from "./licenses";
import { quotePrice, type PriceQuote } from "./pricing";

export const MODEL_SOURCES = ["library", "thingiverse"] as const;
export type ModelSource = (typeof MODEL_SOURCES)[number];

/** The model-sharing sites the catalogue reads (catalogue_models.source). */
export const CATALOGUE_SOURCES = ["thingiverse"] as const;
export type CatalogueSourceId = (typeof CATALOGUE_SOURCES)[number];

/** Where a print job's design came from (print_jobs.source_kind). */
export const DESIGN_SOURCE_KINDS = ["upload", "library", "catalogue"] as const;
export type DesignSourceKind = (typeof DESIGN_SOURCE_KINDS)[number];

export function parseModelSource(value: string | null | undefined): ModelSource | null {
  return (MODEL_SOURCES as readonly string[]).includes(value ?? "") ? (value as ModelSource) : null;
}

/** The sort options of Browse Models, shared by the page's filter form, the server and the API. */
export const MODEL_SORTS = [
  { id: "newest", label: "Newest" },
  { id: "popular", label: "Most Popular" },
  { id: "featured", label: "Featured" },
] as const;
export type ModelSort = (typeof MODEL_SORTS)[number]["id"];
export const DEFAULT_MODEL_SORT: ModelSort = "featured";

export function parseModelSort(value: string | null | undefined): ModelSort {
  return MODEL_SORTS.some((s) => s.id === value) ? (value as ModelSort) : DEFAULT_MODEL_SORT;
}

export const MODEL_DIFFICULTIES = [
  { id: "beginner", label: "Beginner" },
  { id: "intermediate", label: "Intermediate" },
  { id: "advanced", label: "Advanced" },
] as const;
export const DIFFICULTIES = [
  "beginner",
  "intermediate",
  "advanced",
] as const satisfies readonly (typeof MODEL_DIFFICULTIES)[number]["id"][];
export type Difficulty = (typeof DIFFICULTIES)[number];

export const MODEL_PAGE_SIZE = 24;
export const MODEL_NOT_FOUND = "Model not found";

/** Model detail: the estimate's assumptions when a model records no weight or time. */
export const MODEL_DEFAULT_WEIGHT_GRAMS = 50;
export const MODEL_DEFAULT_PRINT_MINUTES = 60;

/** What a model card shows. */
export interface ModelCardData {
  source: ModelSource;
  /** library id, or the catalogue's id on its site */
  id: number;
  name: string;
  creatorName: string;
  thumbnailUrl: string | null;
  likeCount: number;
  downloadCount: number;
  viewCount: number;
  license: string;
  commercialUse: boolean;
  featured: boolean;
  categoryName: string | null;
}

/** What a card shows, plus what the API answers. */
export interface ModelSummary extends ModelCardData {
  description: string;
  createdAt: string | null;
}

export interface ModelPage {
  models: ModelSummary[];
  total: number;
  page: number;
  pageCount: number;
}

export interface ModelComment {
  id: number;
  userId: number;
  authorName: string;
  comment: string;
  createdAt: string;
}

export interface ModelDetail extends ModelSummary {
  creator: { firstName: string | null; lastName: string | null };
  /** library: the uploader's user id (who may delete comments); null for catalogue models */
  creatorId: number | null;
  creatorUrl: string | null;
  imageUrls: string[];
  licenseRefusal: string | null;
  category: { id: number | null; name: string } | null;
  difficulty: Difficulty | null;
  supportRequired: boolean | null;
  tags: string[];
  /** as recorded; null when the model has none */
  printTimeMinutes: number | null;
  filamentWeightGrams: number | null;
  averageRating: number | null;
  totalRatings: number;
  /** catalogue: the model's page on the model-sharing site */
  publicUrl: string | null;
  /** library: the stored printable file */
  file: { name: string; format: string; sizeBytes: number } | null;
  /** the printable file's size in mm, as the analysis engine read it; null when not known */
  size: { x: number; y: number; z: number } | null;
  comments: ModelComment[];
}

export interface ViewerState {
  liked: boolean;
  rating: { rating: number; review: string | null } | null;
}

/** A landing-page carousel item: a featured catalogue model, by its id on the site. */
export type FeaturedModel = Pick<
  ModelCardData,
  "name" | "creatorName" | "thumbnailUrl" | "likeCount" | "downloadCount" | "viewCount"
> & { sourceId: number };

/** A library model as it is stored, before its file and picture are attached. */
export interface NewLibraryModel {
  creatorId: number;
  name: string;
  description: string;
  categoryId: number;
  difficulty: Difficulty;
  printTimeMinutes: number;
  filamentWeightGrams: number;
  supportRequired: boolean;
  license: LibraryLicense;
  tags: string[];
  imageKey?: string | null;
  file?: { name: string; sizeBytes: number; format: string; storageKey: string; analysis: unknown } | null;
}

export interface ModelEstimate {
  quote: PriceQuote;
  weightGrams: number;
  printTimeMinutes: number;
  colors: 1;
  /** true when the model records no weight or time and the document's defaults were used */
  assumedWeight: boolean;
  assumedTime: boolean;
}

/** The Print this Model card: the one engine, at the platform rate, one colour. */
export function modelEstimate(model: Pick<ModelDetail, "filamentWeightGrams" | "printTimeMinutes">): ModelEstimate {
  const weightGrams = model.filamentWeightGrams ?? MODEL_DEFAULT_WEIGHT_GRAMS;
  const printTimeMinutes = model.printTimeMinutes ?? MODEL_DEFAULT_PRINT_MINUTES;
  return {
    quote: quotePrice({ weightGrams, printTimeMinutes, colors: 1 }),
    weightGrams,
    printTimeMinutes,
    colors: 1,
    assumedWeight: model.filamentWeightGrams === null,
    assumedTime: model.printTimeMinutes === null,
  };
}

/** A person's shown name: first and last name, else the username. */
export function displayName(
  person: { firstName: string | null; lastName: string | null; username: string | null } | undefined,
): string {
  const full = [person?.firstName, person?.lastName].filter((p) => p && p.trim()).join(" ");
  return full || person?.username || "Printnear member";
}

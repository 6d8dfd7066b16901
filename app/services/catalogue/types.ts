// Source-agnostic catalogue types. Nothing in here knows about Thingiverse: an adapter
// (see thingiverse.server.ts) turns a site's answers into these shapes, so a second
// model-sharing site can be added later behind the same interface.
// The licence rule itself lives in app/domain/licenses.ts; it is re-exported here for the adapter.
import type { CatalogueLicense } from "~/domain/licenses";
import { isMeshFormat, type MeshFormat } from "~/domain/mesh/types";

export { CATALOGUE_LICENSES, licenseAllowsCommercialPrinting, normalizeLicense, type CatalogueLicense } from "~/domain/licenses";

import type { CatalogueSourceId } from "~/domain/models";

export type { CatalogueSourceId };

export type CatalogueSort = "newest" | "popular" | "relevant";

export interface CatalogueSearchOptions {
  sort: CatalogueSort;
  /** 1-based. */
  page: number;
  /** Defaults to 20; clamped to 1..100. */
  perPage?: number;
}

export interface CatalogueSearchResult {
  /** Total number of matches the source reports (across all pages). */
  total: number;
  models: CatalogueModel[];
  /** Hits the page held as the source sent them, before malformed ones were dropped (says whether a next page exists). */
  pageHits?: number;
}

/** Our normalised view of a model on a model-sharing site. */
export interface CatalogueModel {
  /** The id on the source site (Thingiverse thing id). */
  sourceId: number;
  name: string;
  /** Plain text: HTML tags and Markdown markup are removed. May be '' (search results carry none). */
  description: string;
  creatorName: string;
  creatorUrl?: string;
  /** '' when the source gave no image at all. */
  thumbnailUrl: string;
  imageUrls: string[];
  /** The model's page on the source site. */
  publicUrl: string;
  likeCount: number;
  downloadCount: number;
  viewCount: number;
  /**
   * Normalised licence. Search results from Thingiverse carry no licence, so they come back as
   * 'Other' with `licenseRaw: null`: fetch the model with getModel() before any licence decision.
   */
  license: CatalogueLicense;
  /** The licence text exactly as the source gave it; null when the source did not say. */
  licenseRaw: string | null;
  categoryName?: string;
  tags: string[];
  /** ISO 8601 (UTC). */
  createdAt: string;
  isFeatured?: boolean;
}

export type CatalogueFileFormat = MeshFormat | "other";

export interface CatalogueFile {
  id: number;
  name: string;
  /** Bytes; 0 when the source did not say. */
  size: number;
  /** The API download endpoint (needs the bearer token; the real API redirects to the CDN). */
  downloadUrl: string;
  /** A direct CDN link, when the source provides one. */
  directUrl?: string;
  format: CatalogueFileFormat;
}

export interface CatalogueImage {
  id: number;
  name: string;
  /** Largest display rendition available. */
  url: string;
  /** A small rendition for lists; falls back to `url`. */
  thumbnailUrl: string;
}

export interface CatalogueSource {
  id: CatalogueSourceId;
  search(term: string, opts: CatalogueSearchOptions): Promise<CatalogueSearchResult>;
  /** null when the source has no such model. */
  getModel(id: number): Promise<CatalogueModel | null>;
  /** [] when the model has no files or does not exist. */
  getFiles(id: number): Promise<CatalogueFile[]>;
  /** [] when the model has no images or does not exist. */
  getImages(id: number): Promise<CatalogueImage[]>;
  /**
   * The bytes of one of the model's files: https from the site's own hosts only, redirects
   * checked again, cut off past maxBytes. Throws AppError (invalid, too_large, unavailable).
   */
  downloadFile(file: CatalogueFile, options: { maxBytes: number }): Promise<Uint8Array>;
}

/** The first printable file in the order the site lists them (its main file comes first). */
export function pickPrintableFile(files: CatalogueFile[]): CatalogueFile | null {
  return files.find((f) => isMeshFormat(f.format)) ?? null;
}

/** File format from a file name's extension. */
export function fileFormatFromName(name: string): CatalogueFileFormat {
  const ext = /\.([a-z0-9]+)$/i.exec(name.trim())?.[1]?.toLowerCase();
  if (isMeshFormat(ext)) return ext;
  return "other";
}

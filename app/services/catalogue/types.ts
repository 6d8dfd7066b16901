// Source-agnostic catalogue types. Nothing in here knows about Thingiverse: an adapter
// (see thingiverse.server.ts) turns a site's answers into these shapes, so a second
// model-sharing site can be added later behind the same interface.
//
// This module has no server-only imports, so the licence helpers can also be used in UI code.

export const CATALOGUE_LICENSES = [
  "CC BY",
  "CC BY-SA",
  "CC BY-NC",
  "CC BY-ND",
  "CC BY-NC-SA",
  "CC BY-NC-ND",
  "CC0",
  "GPL",
  "Other",
] as const;

export type CatalogueLicense = (typeof CATALOGUE_LICENSES)[number];

export type CatalogueSourceId = "thingiverse";

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

export type CatalogueFileFormat = "stl" | "obj" | "3mf" | "other";

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
}

// ---------------------------------------------------------------------------------------------
// Licences
// ---------------------------------------------------------------------------------------------

// Word-ish tokens: lower-case, with every run of punctuation/whitespace collapsed to one space,
// so "CC-BY-NC-SA 4.0", "cc_by nc" and "Creative Commons - Attribution - Non-Commercial" all
// become easy to test with simple word-boundary patterns.
function tokens(raw: string): string {
  return ` ${raw
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim()} `;
}

const NON_COMMERCIAL = / (non ?commercial|nc)( |$)/;
const NO_DERIVATIVES = / (no ?derivatives?|no ?derivs?|noderivatives|nd)( |$)/;
const SHARE_ALIKE = / (share ?alike|sharealike|sa)( |$)/;

/**
 * Maps a licence string from any source onto our fixed set. Recognises Thingiverse's long names
 * ("Creative Commons - Attribution - Non-Commercial - Share Alike"), SPDX-like short names
 * ("CC-BY-NC-SA-4.0") and loose spellings ("cc by nc"). Anything else — BSD, LGPL, "All Rights
 * Reserved", empty — is 'Other'.
 */
export function normaliseLicense(raw: string | null | undefined): CatalogueLicense {
  if (raw == null) return "Other";
  if ((CATALOGUE_LICENSES as readonly string[]).includes(raw)) return raw as CatalogueLicense;
  const t = tokens(raw);
  if (t.trim() === "") return "Other";

  // Public domain (Thingiverse: "Creative Commons - Public Domain Dedication", "Public Domain").
  if (/ (cc ?0|cc zero|public domain)( |$)/.test(t)) return "CC0";

  // GPL, but not LGPL/AGPL (those are distinct licences; they stay 'Other' with the raw text kept).
  if (/ (gnu )?gpl( |$)/.test(t) || / gnu general public licen[cs]e( |$)/.test(t)) return "GPL";

  const isCreativeCommons = / (creative commons|cc)( |$)/.test(t) || / (attribution|by)( |$)/.test(t);
  if (!isCreativeCommons) return "Other";
  // "CC" alone (no attribution element) is not a licence we can name.
  if (!/ (attribution|by)( |$)/.test(t)) return "Other";

  const nc = NON_COMMERCIAL.test(t);
  const nd = NO_DERIVATIVES.test(t);
  const sa = SHARE_ALIKE.test(t);
  if (nd && sa) return "Other"; // not a real CC combination
  if (nc && nd) return "CC BY-NC-ND";
  if (nc && sa) return "CC BY-NC-SA";
  if (nc) return "CC BY-NC";
  if (nd) return "CC BY-ND";
  if (sa) return "CC BY-SA";
  return "CC BY";
}

const COMMERCIAL_OK: ReadonlySet<CatalogueLicense> = new Set<CatalogueLicense>([
  "CC BY",
  "CC BY-SA",
  // ND forbids derivatives, not commercial use: printing the unmodified file is allowed.
  "CC BY-ND",
  "CC0",
  "GPL",
]);

// Phrases that forbid selling prints, whatever licence name surrounds them.
const RESTRICTIVE_TEXT =
  / (non ?commercial|nc|all rights reserved|personal use( only)?|not for (commercial|resale|sale)|no commercial)( |$)/;

// Permissive licences that we do not name individually (they normalise to 'Other').
const PERMISSIVE_OTHER = / (bsd|mit|lgpl|apache|zlib|isc)( |$)/;

/**
 * Whether the licence lets Printnear makers sell prints of the model.
 *
 * Accepts either one of our normalised values or a source's raw licence text. Default-deny: any
 * non-commercial variant, "All Rights Reserved", personal-use wording, and anything we cannot
 * recognise (including a bare 'Other', or a search result without licence) return false.
 */
export function licenseAllowsCommercialPrinting(license: string | null | undefined): boolean {
  if (license == null) return false;
  const t = tokens(license);
  if (t.trim() === "") return false;
  if (RESTRICTIVE_TEXT.test(t)) return false;
  const normalised = normaliseLicense(license);
  if (normalised !== "Other") return COMMERCIAL_OK.has(normalised);
  return PERMISSIVE_OTHER.test(t);
}

/** File format from a file name's extension. */
export function fileFormatFromName(name: string): CatalogueFileFormat {
  const ext = /\.([a-z0-9]+)$/i.exec(name.trim())?.[1]?.toLowerCase();
  if (ext === "stl" || ext === "obj" || ext === "3mf") return ext;
  return "other";
}

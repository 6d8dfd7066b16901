// Licences of models and the one licence rule: which licences let Printnear makers sell prints.
// Pure: used by the catalogue adapter (normalising a site's licence text), the model services
// (whether a model may be ordered) and the pages (the badge and the refusal text).

/** The licences we can name. */
const NAMED_LICENSES = ["CC BY", "CC BY-SA", "CC BY-NC", "CC BY-ND", "CC BY-NC-SA", "CC BY-NC-ND", "CC0", "GPL"] as const;

/** The licences a catalogue model is normalized to. */
export const CATALOGUE_LICENSES = [...NAMED_LICENSES, "Other"] as const;
export type CatalogueLicense = (typeof CATALOGUE_LICENSES)[number];

/** The licences a library model may be stored with. */
export const LIBRARY_LICENSES = [...NAMED_LICENSES, "All Rights Reserved", "Other"] as const;
export type LibraryLicense = (typeof LIBRARY_LICENSES)[number];

/** The licences an uploader may choose on /upload-model and in POST /api/models. */
export const UPLOAD_LICENSES = ["CC BY", "CC BY-SA", "CC BY-NC", "CC BY-ND"] as const satisfies readonly LibraryLicense[];

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
export function normalizeLicense(raw: string | null | undefined): CatalogueLicense {
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
 * Whether the licence lets Printnear makers sell prints of the model: the one licence rule.
 *
 * Accepts either one of our normalized values or a source's raw licence text. Default-deny: any
 * non-commercial variant, "All Rights Reserved", personal-use wording, and anything we cannot
 * recognise (including a bare 'Other', or a search result without licence) return false.
 */
export function licenseAllowsCommercialPrinting(license: string | null | undefined): boolean {
  if (license == null) return false;
  const t = tokens(license);
  if (t.trim() === "") return false;
  if (RESTRICTIVE_TEXT.test(t)) return false;
  const normalized = normalizeLicense(license);
  if (normalized !== "Other") return COMMERCIAL_OK.has(normalized);
  return PERMISSIVE_OTHER.test(t);
}

/** Why a model cannot be ordered as a paid print, or null when its licence allows it. */
export function licenseRefusal(license: string | null | undefined): string | null {
  if (licenseAllowsCommercialPrinting(license)) return null;
  if (!license || license === "Other") {
    return "We couldn't confirm that this model's licence allows commercial use, so it can't be ordered as a paid print.";
  }
  return `This model is licensed ${license}, which does not allow commercial use, so it can't be ordered as a paid print. You can still download it and print it yourself.`;
}

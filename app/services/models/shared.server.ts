// What the model services share: the name columns of a user, our image path of a library model,
// the stored catalogue row and the safe-URL rule every stored catalogue URL goes through on its way out.
import { and, eq } from "drizzle-orm";
import { catalogueModels, users } from "../../../db/schema";
import { licenseAllowsCommercialPrinting } from "~/domain/licenses";
import type { ModelSummary } from "~/domain/models";
import { getDb } from "~/utils/db.server";
import { catalogueModelPageUrl, httpsUrl } from "../catalogue/index.server";
import { CATALOGUE_SOURCE } from "../catalogue/sync.server";

/** The user columns a name is made of, for selects joined to users. */
export const nameColumns = { firstName: users.firstName, lastName: users.lastName, username: users.username };

export function libraryImagePath(id: number) {
  return `/models/library/${id}/image`;
}

export function pageOf(requested: number | null | undefined) {
  return Math.max(1, Math.min(10_000, Math.floor(Number(requested) || 1)));
}

const SAME_ORIGIN = "https://printnear.invalid";

/**
 * A stored catalogue URL fit for href and src: https, or a path on our own site (the demo seed's
 * images). Rows written before the adapter checked URLs may hold `javascript:` and the like; and a
 * search hit's coalesce() keeps an old value when the new one was dropped, so reads check again.
 */
export function safeCatalogueUrl(raw: string | null | undefined): string | null {
  const text = raw?.trim();
  if (!text) return null;
  if (text.startsWith("/")) {
    try {
      // "//host", "/\host" and the like leave our origin once a browser resolves them
      const url = new URL(text, SAME_ORIGIN);
      return url.origin === SAME_ORIGIN ? `${url.pathname}${url.search}${url.hash}` : null;
    } catch {
      return null;
    }
  }
  return httpsUrl(text);
}

type CatalogueRow = typeof catalogueModels.$inferSelect;

/** The site's page for a catalogue model: the stored link when it is https, else the one the adapter builds. */
export function cataloguePublicUrl(m: Pick<CatalogueRow, "publicUrl" | "sourceId">): string {
  return httpsUrl(m.publicUrl) ?? catalogueModelPageUrl(m.sourceId);
}

export function catalogueImageUrls(m: Pick<CatalogueRow, "imageUrls">): string[] {
  return m.imageUrls.map(safeCatalogueUrl).filter((u): u is string => u !== null);
}

/** A catalogue model's thumbnail: the stored one when it is safe, else its first safe image. */
export function catalogueThumbnail(m: Pick<CatalogueRow, "thumbnailUrl" | "imageUrls">): string | null {
  return safeCatalogueUrl(m.thumbnailUrl) ?? catalogueImageUrls(m)[0] ?? null;
}

export function catalogueSummary(m: CatalogueRow): ModelSummary {
  return {
    source: "thingiverse",
    id: m.sourceId,
    name: m.name,
    description: m.description,
    creatorName: m.creatorName || "Unknown",
    // every stored URL is checked again on the way out: it goes into href and src
    thumbnailUrl: catalogueThumbnail(m),
    likeCount: m.likeCount,
    downloadCount: m.downloadCount,
    viewCount: m.viewCount,
    license: m.license,
    commercialUse: licenseAllowsCommercialPrinting(m.license),
    featured: m.featured,
    categoryName: m.categoryName,
    createdAt: m.sourceCreatedAt?.toISOString() ?? null,
  };
}

/** Our stored copy of a catalogue model, by the site's id. */
export async function findCatalogueRow(sourceId: number): Promise<CatalogueRow | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(catalogueModels)
    .where(and(eq(catalogueModels.source, CATALOGUE_SOURCE), eq(catalogueModels.sourceId, sourceId)))
    .limit(1);
  return row ?? null;
}

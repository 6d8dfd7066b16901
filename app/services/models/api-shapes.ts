// The JSON shapes for models, as the API routes answer them.
import { modelEstimate, type ModelDetail, type ModelSummary } from "~/domain/models";

/** A catalogue model as the API answers it ("Featured model"): the site's field names. */
export function apiCatalogueModel(m: ModelSummary | ModelDetail) {
  return {
    id: m.id,
    source: m.source,
    name: m.name,
    description: m.description,
    thumbnail: m.thumbnailUrl,
    creator: { name: m.creatorName },
    like_count: m.likeCount,
    download_count: m.downloadCount,
    view_count: m.viewCount,
    license: m.license,
    commercialUse: m.commercialUse,
    featured: m.featured,
    category: m.categoryName,
    createdAt: m.createdAt,
  };
}

/** A library model list item ("Library model" without the comments). */
export function apiLibrarySummary(m: ModelSummary) {
  return {
    id: m.id,
    source: m.source,
    name: m.name,
    description: m.description,
    featured: m.featured,
    likeCount: m.likeCount,
    downloadCount: m.downloadCount,
    viewCount: m.viewCount,
    license: m.license,
    commercialUse: m.commercialUse,
    createdAt: m.createdAt,
    thumbnail: m.thumbnailUrl,
    creatorName: m.creatorName,
    category: m.categoryName,
  };
}

export function apiModelDetail(m: ModelDetail) {
  const estimate = modelEstimate(m);
  const priceEstimate = {
    ...estimate.quote,
    weightGrams: estimate.weightGrams,
    printTimeMinutes: estimate.printTimeMinutes,
    colors: 1,
  };
  if (m.source === "thingiverse") {
    return {
      ...apiCatalogueModel(m),
      images: m.imageUrls.map((url) => ({ url, sizes: [{ url }] })),
      public_url: m.publicUrl,
      tags: m.tags,
      estimatedWeight: m.filamentWeightGrams,
      printTime: m.printTimeMinutes,
      licenseRefusal: m.licenseRefusal,
      priceEstimate,
    };
  }
  return {
    id: m.id,
    source: m.source,
    name: m.name,
    description: m.description,
    featured: m.featured,
    difficulty: m.difficulty,
    supportRequired: m.supportRequired,
    printTime: m.printTimeMinutes ?? 0,
    filamentWeight: m.filamentWeightGrams ?? 0,
    averageRating: m.averageRating ?? 0,
    totalRatings: m.totalRatings,
    downloadCount: m.downloadCount,
    likeCount: m.likeCount,
    viewCount: m.viewCount,
    license: m.license,
    commercialUse: m.commercialUse,
    licenseRefusal: m.licenseRefusal,
    createdAt: m.createdAt,
    thumbnail: m.thumbnailUrl,
    images: m.imageUrls.map((url) => ({ url, sizes: [{ url }] })),
    creator: m.creator,
    comments: m.comments,
    category: m.category,
    tags: m.tags,
    file: m.file,
    priceEstimate,
  };
}

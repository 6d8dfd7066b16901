// zod schemas for the parts of Thingiverse's REST answers we read. Lenient on purpose: unknown
// fields pass through untouched (zod objects strip, never reject, extra keys), optional fields
// may be missing or null, and numbers sent as strings are accepted. Only what we cannot do
// without (ids, names, the array/object shape) is required.

import { z } from "zod";

const optionalString = z.string().nullish();
const count = z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).nullish();
const id = z.union([z.number().int().positive(), z.string().regex(/^\d+$/).transform(Number)]);

export const imageSizeSchema = z.object({
  type: optionalString,
  size: optionalString,
  url: z.string(),
});

export const imageSchema = z.object({
  id: id,
  name: optionalString,
  url: optionalString,
  sizes: z.array(imageSizeSchema).nullish(),
});
export type TvImage = z.infer<typeof imageSchema>;

const creatorSchema = z.object({
  name: optionalString,
  first_name: optionalString,
  last_name: optionalString,
  public_url: optionalString,
});

// Tags arrive as objects ({ name, tag, url, count }); tolerate bare strings too.
const tagSchema = z.union([z.string(), z.object({ name: optionalString, tag: optionalString })]);

const categorySchema = z.object({ name: optionalString });

/** Fields common to a search hit and a full thing; the full thing just has more of them. */
export const thingSchema = z.object({
  id: id,
  name: z.string(),
  thumbnail: optionalString,
  preview_image: optionalString,
  public_url: optionalString,
  creator: creatorSchema.nullish(),
  added: optionalString,
  created_at: optionalString,
  is_featured: z.union([z.boolean(), z.number(), z.string()]).nullish(),
  like_count: count,
  download_count: count,
  view_count: count,
  description: optionalString,
  description_html: optionalString,
  license: optionalString,
  tags: z.array(tagSchema).nullish(),
  categories: z.array(categorySchema).nullish(),
  default_image: imageSchema.nullish(),
});
export type TvThing = z.infer<typeof thingSchema>;

/**
 * GET /search/{term}?type=things → { total, hits }. Hits are kept as `unknown` here and validated
 * one by one, so a single odd hit is dropped instead of failing the whole page.
 */
export const searchSchema = z.object({
  total: count,
  hits: z.array(z.unknown()).nullish(),
});

export const fileSchema = z.object({
  id: id,
  name: z.string(),
  size: count,
  download_url: z.string(),
  direct_url: optionalString,
});
export type TvFile = z.infer<typeof fileSchema>;

/** GET /things/{id}/files and /images answer bare arrays; items are validated one by one. */
export const arraySchema = z.array(z.unknown());

// The library upload's rules, shared by /upload-model and POST /api/models so both refuse alike.
import { z } from "zod";
import { UPLOAD_LICENSES } from "./licenses";
import { INVALID_FILE_TYPE_MESSAGE } from "./mesh/errors";
import { isMeshFormat } from "./mesh/types";
import { DIFFICULTIES } from "./models";
import { parseTags } from "./tags";
import { FILE_TOO_LARGE_MESSAGE, imageTooManyPixelsMessage } from "./upload-limits";

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;

export const NAME_MESSAGE = "Name must be at least 3 characters";
export const DESCRIPTION_MESSAGE = "Description must be at least 10 characters";
export const CATEGORY_MESSAGE = "Please select a category";
export const IMAGE_TYPE_MESSAGE = "Image must be a PNG, JPEG or WebP file";
export const IMAGE_TOO_LARGE_MESSAGE = "Image must be 5 MB or smaller";
export const IMAGE_TOO_MANY_PIXELS_MESSAGE = imageTooManyPixelsMessage("Image");
export const IMAGE_UNREADABLE_MESSAGE = "Image could not be read; it may be damaged";

/** Whole numbers typed in a form or sent as JSON; blank or unreadable falls back to 0. */
function wholeNumberOrZero(message: string) {
  return z.preprocess(
    (value) => {
      if (value === undefined || value === null || value === "") return 0;
      const n = typeof value === "number" ? Math.trunc(value) : Number.parseInt(String(value), 10);
      return Number.isFinite(n) ? n : 0;
    },
    z.number().int().min(0, message).max(1_000_000, "That number is too large"),
  );
}

const fields = {
  name: z.string({ required_error: NAME_MESSAGE }).trim().min(3, NAME_MESSAGE).max(120, "Name must be at most 120 characters"),
  description: z
    .string({ required_error: DESCRIPTION_MESSAGE })
    .trim()
    .min(10, DESCRIPTION_MESSAGE)
    .max(5000, "Description must be at most 5000 characters"),
  categoryId: z.coerce
    .number({ required_error: CATEGORY_MESSAGE, invalid_type_error: CATEGORY_MESSAGE })
    .int(CATEGORY_MESSAGE)
    .positive(CATEGORY_MESSAGE),
  difficulty: z.enum(DIFFICULTIES).default("beginner"),
  printTime: wholeNumberOrZero("Print time must be at least 0 minutes"),
  filamentWeight: wholeNumberOrZero("Filament weight must be at least 0 grams"),
  license: z.enum(UPLOAD_LICENSES).default("CC BY"),
};

function extensionOf(name: string) {
  return /\.([^./\\]+)$/.exec(name.trim())?.[1]?.toLowerCase() ?? "";
}

/** The /upload-model form; the size limit comes from the server (storage's MAX_DESIGN_BYTES). */
export function createModelUploadSchema(limits: { maxModelBytes: number }) {
  return z.object({
    ...fields,
    supportRequired: z.boolean().default(false),
    tags: z
      .string()
      .max(1000)
      .optional()
      .transform((v) => parseTags(v)),
    modelFile: z
      .instanceof(File)
      .optional()
      .refine((file) => !file || isMeshFormat(extensionOf(file.name)), INVALID_FILE_TYPE_MESSAGE)
      .refine((file) => !file || file.size <= limits.maxModelBytes, FILE_TOO_LARGE_MESSAGE),
    image: z
      .instanceof(File)
      .optional()
      .refine((file) => !file || ["png", "jpg", "jpeg", "webp"].includes(extensionOf(file.name)), IMAGE_TYPE_MESSAGE)
      .refine((file) => !file || file.size <= MAX_IMAGE_BYTES, IMAGE_TOO_LARGE_MESSAGE),
  });
}

/** POST /api/models: the upload payload (tags as an array, or comma-separated text). */
export const ModelPayloadSchema = z.object({
  ...fields,
  supportRequired: z.boolean().default(false),
  tags: z
    .union([z.array(z.string()), z.string()])
    .optional()
    .transform((v) => parseTags(v)),
});

// A library model upload (/upload-model and POST /api/models): the per-hour cap, the checks that need the
// server (the category exists, the file is a model, the image is an image), and storing it all, the image
// re-encoded without its metadata. The files arrive on disk (utils/streamed-form.server.ts streams them
// there); the model file is analysed from its path in the analysis pool, queued under its uploader, which also
// renders the thumbnail when no image came with it.
// Failures are AppErrors: "invalid" on the field they are about, "rate_limited" and "busy" with the wait.
import { openAsBlob } from "node:fs";
import { AppError } from "~/domain/app-error";
import type { LibraryLicense } from "~/domain/licenses";
import { MeshError, type AnalysisResult } from "~/domain/mesh";
import {
  CATEGORY_MESSAGE,
  IMAGE_TOO_MANY_PIXELS_MESSAGE,
  IMAGE_TYPE_MESSAGE,
  IMAGE_UNREADABLE_MESSAGE,
} from "~/domain/model-upload";
import type { Difficulty } from "~/domain/models";
import { analyzeOffThread } from "../designs/analysis-pool.server";
import { headOf } from "../designs/analysis.server";
import { reencodeImage } from "../printers/image-reencode.server";
import { IMAGE_TYPES, sniffImage } from "../printers/images.server";
import type { IncomingFile } from "~/utils/streamed-form.server";
import { hitModelUploadLimit, modelUploadLimitMessage } from "../designs/quotas.server";
import { getStorage, newStorageKey } from "../storage.server";
import { createLibraryModel } from "./library.server";
import { categoryExists } from "./lists.server";

/** The thumbnail rendered from the mesh of a model uploaded without a picture. */
export const LIBRARY_THUMBNAIL_SIZE = { width: 320, height: 240 };

/** What the uploader typed (checked by the upload schemas of domain/model-upload.ts). */
export interface LibraryModelFields {
  name: string;
  description: string;
  categoryId: number;
  difficulty: Difficulty;
  printTime: number;
  filamentWeight: number;
  supportRequired: boolean;
  license: LibraryLicense;
  tags: string[];
}

export interface LibraryUpload {
  creatorId: number;
  fields: LibraryModelFields;
  /** the model file and the picture as they arrived on disk; the caller removes them afterwards */
  modelFile?: IncomingFile | null;
  image?: IncomingFile | null;
}

/** Counts one upload against the uploader's hourly cap; past it, AppError "rate_limited" with the wait. */
export async function countModelUpload(userId: number): Promise<void> {
  const limit = await hitModelUploadLimit(userId);
  if (!limit.allowed) {
    throw new AppError("rate_limited", modelUploadLimitMessage(limit.retryAfterSeconds), {
      retryAfterSeconds: limit.retryAfterSeconds,
    });
  }
}

/** The model file read in the pool from its path, under its uploader's queue; a file it cannot read is refused on its field. */
async function analyzeModelFile(file: IncomingFile, owner: number, withThumbnail: boolean) {
  try {
    return await analyzeOffThread(
      { path: file.path, size: file.size },
      file.name,
      {},
      {
        owner: String(owner),
        preview: withThumbnail ? LIBRARY_THUMBNAIL_SIZE : null,
      },
    );
  } catch (error) {
    // a full pool ("busy") goes on up; a timeout or an unreadable mesh is a refusal of the file
    if (error instanceof AppError && error.code === "busy") throw error;
    if (error instanceof MeshError || error instanceof AppError) {
      throw new AppError("invalid", error.message, { field: "modelFile", cause: error });
    }
    throw error;
  }
}

/**
 * Checks and stores a library model with its file and picture; answers the new model's id. Nothing is stored
 * when a check fails, and whatever was stored is removed again when a later step fails.
 */
export async function uploadLibraryModel(input: LibraryUpload): Promise<number> {
  const { fields, creatorId } = input;
  if (!(await categoryExists(fields.categoryId))) throw new AppError("invalid", CATEGORY_MESSAGE, { field: "categoryId" });

  let image: { bytes: Uint8Array<ArrayBuffer>; ext: string; type: string } | null = null;
  if (input.image) {
    // what the bytes are; the name and the browser's type are not trusted
    const ext = sniffImage(await headOf(input.image, 16));
    if (!ext) throw new AppError("invalid", IMAGE_TYPE_MESSAGE, { field: "image" });
    // stored only re-encoded, without the metadata it came with
    const reencoded = await reencodeImage(input.image.path, ext);
    if (!reencoded.ok) {
      const message = reencoded.problem === "too_many_pixels" ? IMAGE_TOO_MANY_PIXELS_MESSAGE : IMAGE_UNREADABLE_MESSAGE;
      throw new AppError("invalid", message, { field: "image" });
    }
    image = { bytes: reencoded.bytes, ext, type: IMAGE_TYPES[ext] };
  }

  let model: { file: IncomingFile; analysis: AnalysisResult; thumbnail: Uint8Array | null } | null = null;
  if (input.modelFile) {
    const output = await analyzeModelFile(input.modelFile, creatorId, !image);
    model = { file: input.modelFile, analysis: output.analysis, thumbnail: output.preview };
  }

  const storage = getStorage();
  const stored: string[] = [];
  try {
    let file = null;
    if (model) {
      const storageKey = newStorageKey("models", model.analysis.fileFormat);
      // a disk-backed blob: streamed into storage, never read whole into memory
      await storage.set(
        storageKey,
        new File([await openAsBlob(model.file.path)], model.file.name, { type: "application/octet-stream" }),
      );
      stored.push(storageKey);
      file = {
        name: model.file.name,
        sizeBytes: model.file.size,
        format: model.analysis.fileFormat,
        storageKey,
        analysis: model.analysis,
      };
    }
    let imageKey: string | null = null;
    if (image) {
      imageKey = newStorageKey("model-images", image.ext);
      await storage.set(imageKey, new File([image.bytes], `image.${image.ext}`, { type: image.type }));
      stored.push(imageKey);
    } else if (model?.thumbnail) {
      // without a picture of its own, the model shows the thumbnail the pool rendered from its mesh
      imageKey = newStorageKey("model-images", "png");
      await storage.set(imageKey, new File([model.thumbnail as Uint8Array<ArrayBuffer>], "image.png", { type: "image/png" }));
      stored.push(imageKey);
    }
    return await createLibraryModel({
      creatorId,
      name: fields.name,
      description: fields.description,
      categoryId: fields.categoryId,
      difficulty: fields.difficulty,
      // a file's analysis is the better estimate than numbers typed by hand
      printTimeMinutes: model ? model.analysis.estimatedTimeMinutes : fields.printTime,
      filamentWeightGrams: model ? model.analysis.estimatedWeight : fields.filamentWeight,
      supportRequired: fields.supportRequired,
      license: fields.license,
      tags: fields.tags,
      imageKey,
      file,
    });
  } catch (error) {
    await Promise.all(stored.map((key) => Promise.resolve(storage.remove(key)).catch(() => {})));
    throw error;
  }
}

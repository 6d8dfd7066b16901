// Likes, comments and ratings on library models.
import { and, eq, sql } from "drizzle-orm";
import { libraryModels, modelComments, modelLikes, modelRatings, users } from "../../../db/schema";
import { AppError } from "~/domain/app-error";
import {
  BLANK_COMMENT_MESSAGE,
  cleanUserText,
  COMMENT_MAX_LENGTH,
  INVISIBLE_COMMENT_MESSAGE,
  isRating,
  isSelfRating,
  OWN_MODEL_RATING,
  RATING_MESSAGE,
} from "~/domain/model-feedback";
import { displayName, type ModelComment } from "~/domain/models";
import { getDb } from "~/utils/db.server";
import { limitWrite } from "../write-limits.server";
import { nameColumns } from "./shared.server";

export async function libraryModelExists(id: number): Promise<boolean> {
  const db = await getDb();
  const [row] = await db.select({ id: libraryModels.id }).from(libraryModels).where(eq(libraryModels.id, id)).limit(1);
  return Boolean(row);
}

/** Sets the like to the wanted state (so a double submit changes nothing twice); null when the model is absent. */
export async function setLike(
  modelId: number,
  userId: number,
  liked: boolean,
): Promise<{ liked: boolean; likeCount: number } | null> {
  if (!(await libraryModelExists(modelId))) return null;
  await limitWrite(userId, "like");
  const db = await getDb();
  if (liked) {
    await db.insert(modelLikes).values({ userId, libraryModelId: modelId }).onConflictDoNothing();
  } else {
    await db.delete(modelLikes).where(and(eq(modelLikes.libraryModelId, modelId), eq(modelLikes.userId, userId)));
  }
  // the count is recomputed from the rows, so concurrent likes can never drift it
  const [row] = await db
    .update(libraryModels)
    .set({ likeCount: sql`(select count(*) from ${modelLikes} where ${modelLikes.libraryModelId} = ${modelId})` })
    .where(eq(libraryModels.id, modelId))
    .returning({ likeCount: libraryModels.likeCount });
  return { liked, likeCount: row?.likeCount ?? 0 };
}

export async function toggleLike(modelId: number, userId: number) {
  const db = await getDb();
  const [like] = await db
    .select({ userId: modelLikes.userId })
    .from(modelLikes)
    .where(and(eq(modelLikes.libraryModelId, modelId), eq(modelLikes.userId, userId)))
    .limit(1);
  return setLike(modelId, userId, !like);
}

export async function addComment(modelId: number, userId: number, text: string): Promise<ModelComment | null> {
  const comment = cleanUserText(text);
  if (!comment)
    throw new AppError("invalid", text.trim() ? INVISIBLE_COMMENT_MESSAGE : BLANK_COMMENT_MESSAGE, { field: "comment" });
  if (!(await libraryModelExists(modelId))) return null;
  await limitWrite(userId, "comment");
  const db = await getDb();
  const [row] = await db
    .insert(modelComments)
    .values({ libraryModelId: modelId, userId, comment: comment.slice(0, COMMENT_MAX_LENGTH) })
    .returning();
  const [author] = await db.select(nameColumns).from(users).where(eq(users.id, userId));
  return {
    id: row!.id,
    userId,
    authorName: displayName(author),
    comment: row!.comment,
    createdAt: row!.createdAt.toISOString(),
  };
}

/**
 * One rating per user and model; a second one updates the first. null when the model is absent;
 * AppError("forbidden", OWN_MODEL_RATING) for the model's creator.
 */
export async function rateModel(
  modelId: number,
  userId: number,
  input: { rating: number; review?: string | null; hasPrinted?: boolean },
): Promise<{ rating: number; review: string | null; averageRating: number | null; totalRatings: number } | null> {
  if (!isRating(input.rating)) throw new AppError("invalid", RATING_MESSAGE, { field: "rating" });
  const db = await getDb();
  const [model] = await db
    .select({ creatorId: libraryModels.creatorId })
    .from(libraryModels)
    .where(eq(libraryModels.id, modelId))
    .limit(1);
  if (!model) return null;
  if (isSelfRating(model, userId)) throw new AppError("forbidden", OWN_MODEL_RATING);
  await limitWrite(userId, "rating");
  const review = cleanUserText(input.review ?? "").slice(0, COMMENT_MAX_LENGTH) || null;
  const hasPrinted = input.hasPrinted ?? false;
  await db
    .insert(modelRatings)
    .values({ libraryModelId: modelId, userId, rating: input.rating, review, hasPrinted })
    .onConflictDoUpdate({
      target: [modelRatings.libraryModelId, modelRatings.userId],
      set: { rating: input.rating, review, hasPrinted, updatedAt: new Date() },
    });
  const [row] = await db
    .update(libraryModels)
    .set({
      ratingSum: sql`(select coalesce(sum(${modelRatings.rating}), 0) from ${modelRatings} where ${modelRatings.libraryModelId} = ${modelId})`,
      ratingCount: sql`(select count(*) from ${modelRatings} where ${modelRatings.libraryModelId} = ${modelId})`,
    })
    .where(eq(libraryModels.id, modelId))
    .returning({ ratingSum: libraryModels.ratingSum, ratingCount: libraryModels.ratingCount });
  const totalRatings = row?.ratingCount ?? 0;
  return {
    rating: input.rating,
    review,
    averageRating: totalRatings > 0 ? Math.round((row!.ratingSum / totalRatings) * 10) / 10 : null,
    totalRatings,
  };
}

export const NOT_YOUR_COMMENT = "Only the comment's author or an admin can delete it.";

/**
 * Deletes a comment of a library model for its author or an admin. null when the model has no
 * such comment; AppError("forbidden") for anyone else.
 */
export async function deleteComment(
  modelId: number,
  commentId: number,
  actor: { id: number; isAdmin: boolean },
): Promise<{ id: number } | null> {
  const db = await getDb();
  const [comment] = await db
    .select({ id: modelComments.id, userId: modelComments.userId })
    .from(modelComments)
    .where(and(eq(modelComments.id, commentId), eq(modelComments.libraryModelId, modelId)))
    .limit(1);
  if (!comment) return null;
  if (comment.userId !== actor.id && !actor.isAdmin) throw new AppError("forbidden", NOT_YOUR_COMMENT);
  await limitWrite(actor.id, "commentDelete");
  const deleted = await db
    .delete(modelComments)
    .where(and(eq(modelComments.id, commentId), eq(modelComments.libraryModelId, modelId)))
    .returning({ id: modelComments.id });
  return deleted[0] ?? null;
}

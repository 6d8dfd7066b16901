// Writes on library models are limited per user, and comments can be deleted by their author or an admin.
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { libraryModels, modelComments } from "../../db/schema";
import { seedDatabase } from "../../db/seed";
import { action as likeAction } from "../../app/routes/api.models.$id.like";
import { action as commentAction } from "../../app/routes/api.models.$id.comments";
import { action as deleteCommentAction } from "../../app/routes/api.models.$id.comments.$commentId";
import { action as ratingAction } from "../../app/routes/api.models.$id.ratings";
import { action as pageAction, loader as pageLoader } from "../../app/routes/models.$source.$id/route";
import { WRITE_LIMITS } from "../../app/services/write-limits.server";
import { getDb } from "../../app/utils/db.server";
import {
  args,
  createTestUser,
  flashedToast,
  formRequest,
  getRequest,
  jsonRequest,
  run,
  sessionCookieFor,
} from "../setup/requests";

let modelId: number;
const saved = { comment: WRITE_LIMITS.comment.limit, like: WRITE_LIMITS.like.limit, rating: WRITE_LIMITS.rating.limit };

beforeAll(async () => {
  const db = await getDb();
  await seedDatabase(db, { log: () => {} });
  const [model] = await db.select().from(libraryModels).where(eq(libraryModels.name, "Articulated Dragon"));
  modelId = model!.id;
});
afterEach(() => {
  WRITE_LIMITS.comment.limit = saved.comment;
  WRITE_LIMITS.like.limit = saved.like;
  WRITE_LIMITS.rating.limit = saved.rating;
});

async function signedIn(overrides: { isAdmin?: boolean } = {}) {
  const user = await createTestUser(overrides);
  return { user, cookie: await sessionCookieFor(user.id) };
}

const params = () => ({ id: String(modelId) });
const apiPost = (action: typeof likeAction, body: unknown, cookie: string) =>
  run(() => action(args(jsonRequest("/x", body, { cookie }), params())));
const pagePost = (fields: Record<string, string>, cookie: string) =>
  run(() =>
    pageAction(args(formRequest(`/models/library/${modelId}`, fields, { cookie }), { source: "library", id: String(modelId) })),
  );
const apiDelete = (commentId: number | string, cookie?: string) =>
  run(() =>
    deleteCommentAction(
      args(
        new Request(`http://localhost:3000/api/models/${modelId}/comments/${commentId}`, {
          method: "DELETE",
          headers: cookie ? { cookie } : {},
        }),
        { id: String(modelId), commentId: String(commentId) },
      ),
    ),
  );

async function commentsBy(userId: number) {
  const db = await getDb();
  return db.select().from(modelComments).where(eq(modelComments.userId, userId));
}

describe("write limits on comments, ratings and likes", () => {
  it("the API answers 429 with Retry-After past a user's comment limit, and stores nothing more", async () => {
    WRITE_LIMITS.comment.limit = 3;
    const { user, cookie } = await signedIn();
    for (let i = 0; i < 3; i++) expect((await apiPost(commentAction, { comment: `note ${i}` }, cookie)).status).toBe(201);
    const refused = await apiPost(commentAction, { comment: "one too many" }, cookie);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as { message: string }).message).toMatch(/^You have posted many comments in a short time/);
    expect(await commentsBy(user.id)).toHaveLength(3);
    // another user is counted apart
    expect((await apiPost(commentAction, { comment: "hello" }, (await signedIn()).cookie)).status).toBe(201);
  });

  it("the page shows the limit as a toast and posts nothing", async () => {
    WRITE_LIMITS.comment.limit = 1;
    const { user, cookie } = await signedIn();
    expect((await pagePost({ intent: "comment", comment: "first" }, cookie)).status).toBe(302);
    const refused = await pagePost({ intent: "comment", comment: "second" }, cookie);
    expect(refused.status).toBe(302);
    expect(await flashedToast(refused)).toMatchObject({
      title: expect.stringMatching(/^You have posted many comments/),
      variant: "destructive",
    });
    expect(await commentsBy(user.id)).toHaveLength(1);
  });

  it("likes and ratings are limited too", async () => {
    WRITE_LIMITS.like.limit = 2;
    WRITE_LIMITS.rating.limit = 1;
    const { cookie } = await signedIn();
    expect((await apiPost(likeAction, {}, cookie)).status).toBe(200);
    expect((await apiPost(likeAction, {}, cookie)).status).toBe(200);
    expect((await apiPost(likeAction, {}, cookie)).status).toBe(429);
    expect((await apiPost(ratingAction, { rating: 4 }, cookie)).status).toBe(200);
    expect((await apiPost(ratingAction, { rating: 5 }, cookie)).status).toBe(429);
  });
});

describe("deleting comments", () => {
  it("the author deletes their own comment with a plain form post behind a confirmation", async () => {
    const { user, cookie } = await signedIn();
    await apiPost(commentAction, { comment: "I take this back" }, cookie);
    const [comment] = await commentsBy(user.id);
    const page = await pageLoader(
      args(getRequest(`/models/library/${modelId}`, cookie), { source: "library", id: String(modelId) }),
    );
    expect(page).toMatchObject({ viewerId: user.id, isAdmin: false });

    const res = await pagePost({ intent: "delete-comment", commentId: String(comment!.id) }, cookie);
    expect(res.status).toBe(302);
    expect(await flashedToast(res)).toMatchObject({ title: "Comment deleted." });
    expect(await commentsBy(user.id)).toHaveLength(0);
    expect((await pagePost({ intent: "delete-comment", commentId: String(comment!.id) }, cookie)).status).toBe(404);
  });

  it("someone else gets 403, a visitor 401, an admin may delete it through the API", async () => {
    const author = await signedIn();
    await apiPost(commentAction, { comment: "Keep me" }, author.cookie);
    const [comment] = await commentsBy(author.user.id);

    expect((await apiDelete(comment!.id)).status).toBe(401);
    const stranger = await apiDelete(comment!.id, (await signedIn()).cookie);
    expect(stranger.status).toBe(403);
    expect(await stranger.json()).toEqual({ message: "Only the comment's author or an admin can delete it." });
    const strangerPage = await pagePost({ intent: "delete-comment", commentId: String(comment!.id) }, (await signedIn()).cookie);
    expect(await flashedToast(strangerPage)).toMatchObject({ variant: "destructive" });
    expect(await commentsBy(author.user.id)).toHaveLength(1);

    const admin = await signedIn({ isAdmin: true });
    expect((await apiDelete(comment!.id, admin.cookie)).status).toBe(204);
    expect(await commentsBy(author.user.id)).toHaveLength(0);
    expect((await apiDelete(comment!.id, admin.cookie)).status).toBe(404);
    expect((await apiDelete("abc", admin.cookie)).status).toBe(404);
  });
});

import { describe, expect, test } from "vitest";
import { isAppError } from "~/domain/app-error";
import { limitWrite, WRITE_LIMITS } from "~/services/write-limits.server";

describe("limitWrite", () => {
  test("allows a kind's limit of writes per user, then refuses with the time to wait", async () => {
    const now = Date.UTC(2026, 0, 1);
    const { limit, windowMs } = WRITE_LIMITS.comment;
    for (let i = 0; i < limit; i++) await limitWrite(1, "comment", now);
    const refused = await limitWrite(1, "comment", now).catch((e: unknown) => e);
    expect(isAppError(refused) && refused.code).toBe("rate_limited");
    expect(isAppError(refused) && refused.retryAfterSeconds).toBe(windowMs / 1000);
    // another user and another kind are counted apart; the window passing frees the user again
    await expect(limitWrite(2, "comment", now)).resolves.toBeUndefined();
    await expect(limitWrite(1, "like", now)).resolves.toBeUndefined();
    await expect(limitWrite(1, "comment", now + windowMs + 1)).resolves.toBeUndefined();
  });
});

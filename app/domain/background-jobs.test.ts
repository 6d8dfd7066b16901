import { describe, expect, test } from "vitest";
import {
  durationText,
  estimateTimeLeftMs,
  jobOutcomeMessage,
  progressPercent,
  retryDelayMs,
  summarizeJob,
} from "./background-jobs";

describe("retry backoff", () => {
  test.each([
    [1, 5_000],
    [2, 10_000],
    [3, 20_000],
    [4, 40_000],
    [20, 30 * 60_000], // capped
  ])("after attempt %i the task waits %i ms", (attempt, ms) => {
    expect(retryDelayMs(attempt)).toBe(ms);
  });
  test("the base can be lowered", () => expect(retryDelayMs(3, 100)).toBe(400));
});

describe("progress and time left", () => {
  test("percent of processed, capped to 0-100; an empty finished job is 100", () => {
    expect(progressPercent({ processed: 1, total: 3, counts: {} })).toBe(33);
    expect(progressPercent({ processed: 5, total: 3, counts: {} })).toBe(100);
    expect(progressPercent(null)).toBe(0);
    expect(progressPercent(null, true)).toBe(100);
  });
  test("time left at the rate seen so far", () => {
    expect(estimateTimeLeftMs({ processed: 25, total: 100, counts: {} }, 50_000)).toBe(150_000);
    expect(estimateTimeLeftMs({ processed: 0, total: 100, counts: {} }, 50_000)).toBeNull();
  });
  test.each([
    [12_000, "12 s"],
    [200_000, "3 min 20 s"],
    [3_900_000, "1 h 05 min"],
  ])("%i ms reads %s", (ms, text) => expect(durationText(ms)).toBe(text));
});

describe("documented outcomes", () => {
  const base = { id: 1, attempts: 1, lastError: null, createdAt: 0, startedAt: 0, finishedAt: 10_000, progress: null };
  test("weight calculation and bulk caching name their counts", () => {
    const stats = { total: 10, calculated: 6, cached: 3, failed: 1 };
    const weights = summarizeJob({ ...base, type: "catalogue.calculate-weights", status: "done", result: { stats } });
    expect(jobOutcomeMessage(weights)).toEqual({
      title: "Weight Calculation Complete",
      description: "Calculated: 6, Cached: 3, Failed: 1",
      variant: "default",
    });
    const bulk = summarizeJob({ ...base, type: "catalogue.bulk-cache", status: "done", result: { stats } });
    expect(jobOutcomeMessage(bulk)?.description).toBe("Processed: 10, Calculated: 6, Cached: 3, Failed: 1");
  });
  test("failures get their titles; running jobs none", () => {
    const failed = (type: string) => jobOutcomeMessage({ type, status: "failed", result: null, lastError: "x" })?.title;
    expect(failed("catalogue.import-popular")).toBe("Import Failed");
    expect(failed("catalogue.calculate-weights")).toBe("Calculation Failed");
    expect(failed("catalogue.bulk-cache")).toBe("Bulk Cache Failed");
    expect(failed("newsletter.send")).toBe("Send Failed");
    expect(jobOutcomeMessage({ type: "catalogue.bulk-cache", status: "running", result: null, lastError: null })).toBeNull();
  });
});

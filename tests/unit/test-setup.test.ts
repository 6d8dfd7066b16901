// The shared test setup keeps its promises: console.error is watched in every test, and one msw
// server answers third-party HTTP (and refuses hosts it has no handler for).
import { http, HttpResponse } from "msw";
import { describe, expect, test, vi } from "vitest";
import { server } from "../setup/msw";

describe("the shared test setup", () => {
  test("watches console.error during every test, so an unexpected one fails it", () => {
    expect(vi.isMockFunction(console.error)).toBe(true);
  });

  test("lets a test that expects an error log say so", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    console.error("expected");
    expect(console.error).toHaveBeenCalledWith("expected");
  });

  test("answers third-party HTTP with the msw server, and a test's own handlers win", async () => {
    server.use(http.get("https://api.example.test/ping", () => HttpResponse.json({ pong: true })));
    const res = await fetch("https://api.example.test/ping");
    expect(await res.json()).toEqual({ pong: true });
  });

  test("resets a test's own handlers after it, and refuses unknown hosts", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    await expect(fetch("https://api.example.test/ping")).rejects.toThrow();
    expect(console.error).toHaveBeenCalled();
  });
});

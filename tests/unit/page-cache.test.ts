import { beforeEach, describe, expect, it } from "vitest";
import { cachedPage, clearPageCache, pageCacheKey } from "../../server/page-cache";

const html = (nonce: string, text = "page") =>
  new Response(`<script nonce="${nonce}">x</script><p>${text}</p>`, {
    status: 200,
    headers: { "content-type": "text/html; charset=utf-8" },
  });

beforeEach(() => clearPageCache());

describe("the signed-out page micro-cache", () => {
  it("caches only signed-out GETs of the public listing pages", () => {
    const key = (path: string, headers: Record<string, string> = {}, method = "GET") =>
      pageCacheKey({ method, path, url: path, headers: new Headers(headers) });
    expect(key("/models")).toBe("/models");
    expect(key("/models", { cookie: "pn_session=abc" })).toBeNull();
    expect(key("/models", {}, "POST")).toBeNull();
    expect(key("/models.data")).toBeNull();
    expect(key("/dashboard")).toBeNull();
    expect(key("/models/library/1")).toBeNull();
  });

  it("renders once for requests within a second, each answer with its own nonce", async () => {
    let renders = 0;
    const render = async () => {
      renders += 1;
      return html("first-nonce", `render ${renders}`);
    };
    const first = await cachedPage("/models", "first-nonce", render, 1000);
    const second = await cachedPage("/models", "second-nonce", render, 1500);
    expect(renders).toBe(1);
    expect(await first.text()).toContain('nonce="first-nonce"');
    const secondBody = await second.text();
    expect(secondBody).toContain('nonce="second-nonce"');
    expect(secondBody).not.toContain("first-nonce");
    expect(secondBody).toContain("render 1");
    // a second later the stale page is still served while it is rendered again; then the new one
    expect(await (await cachedPage("/models", "third", render, 2100)).text()).toContain("render 1");
    await new Promise((r) => setTimeout(r, 0));
    expect(renders).toBe(2);
    expect(await (await cachedPage("/models", "fourth", render, 3200)).text()).toContain("render 2");
    // older than five seconds: the visitor waits for a fresh render
    expect(await (await cachedPage("/models", "fifth", render, 9000)).text()).toContain("render 3");
  });

  it("shares one render among concurrent misses", async () => {
    let renders = 0;
    const render = async () => {
      renders += 1;
      await new Promise((r) => setTimeout(r, 20));
      return html("n0");
    };
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => cachedPage("/browse", `n${i}`, render, 5000)));
    expect(renders).toBe(1);
    expect(answers.every((a) => a.status === 200)).toBe(true);
  });

  it("never keeps an answer that sets a cookie or is not a 200", async () => {
    let renders = 0;
    const withCookie = async () => {
      renders += 1;
      const response = html("n");
      response.headers.set("set-cookie", "pn_toast=abc");
      return response;
    };
    await cachedPage("/", "n", withCookie, 1);
    await cachedPage("/", "n", withCookie, 2);
    expect(renders).toBe(2);
    const failing = async () => {
      renders += 1;
      return new Response("error", { status: 503, headers: { "content-type": "text/html" } });
    };
    await cachedPage("/printers", "n", failing, 1);
    await cachedPage("/printers", "n", failing, 2);
    expect(renders).toBe(4);
  });
});

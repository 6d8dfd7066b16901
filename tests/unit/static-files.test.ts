import { describe, expect, it, vi } from "vitest";
import type { Request, Response } from "express";
import { namesAFile, onlyFilePaths } from "../../server/static-files";

describe("the build's public files", () => {
  it("are looked for on disk only for paths that name a file", () => {
    const serve = vi.fn();
    const handler = onlyFilePaths(serve);
    const ask = (path: string) => {
      const next = vi.fn();
      handler({ path } as Request, {} as Response, next);
      return next.mock.calls.length > 0 ? "next" : "disk";
    };
    expect(ask("/dashboard")).toBe("next");
    expect(ask("/order/12")).toBe("next");
    expect(ask("/")).toBe("next");
    expect(ask("/favicon.svg")).toBe("disk");
    expect(ask("/icons/icon-192.png")).toBe("disk");
    expect(ask("/sw.js")).toBe("disk");
    // a route whose address has an extension is still asked of the disk first, then answered by its route
    expect(ask("/drafts/4/preview.png")).toBe("disk");
    expect(serve).toHaveBeenCalledTimes(4);
    expect(namesAFile("/models.data")).toBe(false);
    expect(namesAFile("/v1.2/models")).toBe(false);
  });
});

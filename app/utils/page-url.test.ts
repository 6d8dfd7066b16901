import { describe, expect, it } from "vitest";
import { pageUrl } from "./page-url";

const at = (url: string) => pageUrl(new Request(url)).href;

describe("pageUrl", () => {
  it("is a document request's own address", () => {
    expect(at("http://x.test/models?q=a%2Fb&page=2")).toBe("http://x.test/models?q=a%2Fb&page=2");
    expect(at("http://x.test/auth?redirectTo=/dashboard")).toBe("http://x.test/auth?redirectTo=/dashboard");
  });

  it("is a data request's page, without the framework's suffix and parameters", () => {
    expect(at("http://x.test/dashboard.data")).toBe("http://x.test/dashboard");
    expect(at("http://x.test/models.data?q=lamp&_routes=root%2Croutes%2Fmodels._index")).toBe("http://x.test/models?q=lamp");
    expect(at("http://x.test/_.data")).toBe("http://x.test/");
    expect(at("http://x.test/printers/_.data")).toBe("http://x.test/printers/");
    expect(at("http://x.test/admin.data?index")).toBe("http://x.test/admin");
  });
});

import type { Request as ExpressRequest } from "express";
import { afterEach, describe, expect, it } from "vitest";
import { isCrossSiteRequest } from "../../app/utils/origin";
import { behindTrustedProxy, publicHost } from "../../server/remix-handler";
import { contentSecurityPolicy, SECURITY_HEADERS, tileSource } from "../../server/security-headers";

const policy = (path = "/", tileUrl = "https://tile.openstreetmap.org/{z}/{x}/{y}.png") =>
  contentSecurityPolicy({ nonce: "abc123", path, tileUrl, catalogueImageSources: ["https://*.thingiverse.com"] });

const directive = (csp: string, name: string) =>
  csp
    .split("; ")
    .find((d) => d.startsWith(`${name} `))
    ?.split(" ")
    .slice(1);

describe("Content-Security-Policy", () => {
  it("lets only our scripts and this request's nonce run", () => {
    expect(directive(policy(), "script-src")).toEqual(["'self'", "'nonce-abc123'"]);
    expect(directive(policy(), "object-src")).toEqual(["'none'"]);
    expect(directive(policy(), "frame-ancestors")).toEqual(["'none'"]);
    expect(directive(policy(), "base-uri")).toEqual(["'self'"]);
  });

  it("allows the card provider's hosts on /checkout only", () => {
    const checkout = policy("/checkout");
    expect(directive(checkout, "script-src")).toContain("https://js.stripe.com");
    expect(directive(checkout, "frame-src")).toEqual(["https://js.stripe.com", "https://hooks.stripe.com"]);
    expect(directive(checkout, "connect-src")).toEqual(["'self'", "https://api.stripe.com"]);
    expect(directive(checkout, "form-action")).toEqual(["'self'", "https://checkout.stripe.com"]);
    expect(policy("/order/1")).not.toContain("stripe");
    expect(directive(policy("/order/1"), "frame-src")).toEqual(["'none'"]);
  });

  it("allows images from the map tiles and the catalogue, and fetches to ourselves only", () => {
    expect(directive(policy(), "img-src")).toEqual(
      expect.arrayContaining(["'self'", "https://tile.openstreetmap.org", "https://*.thingiverse.com"]),
    );
    expect(directive(policy(), "connect-src")).toEqual(["'self'"]);
    expect(directive(policy("/", "https://{s}.tiles.example.net/{z}/{x}/{y}.png"), "img-src")).toContain(
      "https://*.tiles.example.net",
    );
    expect(tileSource("javascript:alert(1)")).toBeNull();
    expect(tileSource("https://tiles.example.net:8443/{z}/{x}/{y}.png")).toBe("https://tiles.example.net:8443");
  });

  it("sends the other headers", () => {
    expect(SECURITY_HEADERS["Cross-Origin-Opener-Policy"]).toBe("same-origin");
    expect(SECURITY_HEADERS["Permissions-Policy"]).toContain("camera=()");
  });
});

describe("the cross-site check's host", () => {
  const saved = process.env.TRUST_PROXY;
  afterEach(() => {
    if (saved === undefined) delete process.env.TRUST_PROXY;
    else process.env.TRUST_PROXY = saved;
  });
  const request = (headers: Record<string, string>) =>
    ({ get: (name: string) => headers[name.toLowerCase()] }) as unknown as ExpressRequest;

  it("ignores X-Forwarded-Host unless a trusted proxy sets it", () => {
    delete process.env.TRUST_PROXY;
    const forged = request({ host: "printnear.example", "x-forwarded-host": "evil.example", origin: "https://evil.example" });
    expect(publicHost(forged)).toBe("printnear.example");
    expect(isCrossSiteRequest({ origin: "https://evil.example", host: publicHost(forged) })).toBe(true);
    process.env.TRUST_PROXY = "fly";
    expect(publicHost(forged)).toBe("evil.example");
  });

  it("turns the proxy on only for fly, true or 1; false, 0, no or empty leave it off", () => {
    const forged = request({ host: "printnear.example", "x-forwarded-host": "evil.example" });
    for (const off of ["false", "FALSE", "0", "no", "off", "", " "]) {
      process.env.TRUST_PROXY = off;
      expect(behindTrustedProxy(), off).toBe(false);
      expect(publicHost(forged), off).toBe("printnear.example");
    }
    for (const on of ["fly", "true", "1", "TRUE", " fly "]) {
      process.env.TRUST_PROXY = on;
      expect(behindTrustedProxy(), on).toBe(true);
      expect(publicHost(forged), on).toBe("evil.example");
    }
  });
});

import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { extraAttributes, isCurrentPage, isSiteAddress, Link } from "./link";

describe("the site's links", () => {
  it("draw a link to an address of the site as a plain <a> marked for in-page navigation", () => {
    const html = renderToStaticMarkup(
      <Link to="/order/7?tab=messages" className="btn" aria-label="Order 7" data-testid="order-link">
        Order
      </Link>,
    );
    expect(html).toBe(
      '<a href="/order/7?tab=messages" class="btn" data-discover="true" data-in-app="" aria-label="Order 7" data-testid="order-link">Order</a>',
    );
  });

  it("draw a link that loads a new document as a plain <a> the router leaves alone, as React Router's Link draws it", () => {
    expect(extraAttributes({ to: "/checkout?orderId=1", reloadDocument: true, className: "btn" })).toBeUndefined();
    const ours = renderToStaticMarkup(
      <Link to="/checkout?orderId=1" reloadDocument className="btn-primary" data-testid="pay">
        Complete Payment
      </Link>,
    );
    expect(ours).toBe('<a href="/checkout?orderId=1" class="btn-primary" data-testid="pay">Complete Payment</a>');
    // what React Router's Link draws then: no marker for the click handler, nothing to discover
    // (tests/e2e/checkout-document.spec.ts clicks such links and checks that a document loads)
  });

  it("leave to React Router's Link every link that asks for more than attributes", () => {
    expect(extraAttributes({ to: "/models", className: "x", "aria-current": "page" })).toBeUndefined();
    expect(extraAttributes({ to: "/models", "data-testid": "t", title: "Models" })).toEqual({
      "data-testid": "t",
      title: "Models",
    });
    for (const props of [
      { to: "models" },
      { to: "//elsewhere.example/x" },
      { to: "/\\elsewhere.example" },
      { to: { pathname: "/models" } },
      { to: "/models", replace: true },
      { to: "/models", state: { from: "x" } },
      { to: "/models", prefetch: "intent" },
      { to: "/models", target: "_blank" },
      { to: "/models", onClick: () => {} },
      { to: "/file.stl", download: true },
    ]) {
      expect(extraAttributes(props), JSON.stringify(props)).toBeNull();
    }
  });

  it("know the site's own addresses", () => {
    expect(isSiteAddress("/")).toBe(true);
    expect(isSiteAddress("/a/b?c#d")).toBe(true);
    expect(isSiteAddress("https://printnear.com/")).toBe(false);
    expect(isSiteAddress("//printnear.com/")).toBe(false);
    expect(isSiteAddress("#top")).toBe(false);
    expect(isSiteAddress(null)).toBe(false);
  });

  it("mark the page shown and its sub-pages as NavLink does", () => {
    expect(isCurrentPage("/dashboard", "/dashboard")).toBe(true);
    expect(isCurrentPage("/dashboard/", "/dashboard")).toBe(true);
    expect(isCurrentPage("/Dashboard", "/dashboard")).toBe(true);
    expect(isCurrentPage("/admin/orders/4", "/admin/orders")).toBe(true);
    expect(isCurrentPage("/admin/orders/4", "/admin/orders", true)).toBe(false);
    expect(isCurrentPage("/admin/ordersx", "/admin/orders")).toBe(false);
    expect(isCurrentPage("/models", "/")).toBe(false);
    expect(isCurrentPage("/", "/")).toBe(true);
    expect(isCurrentPage("/messages", "/messages?jobId=3")).toBe(true);
  });
});

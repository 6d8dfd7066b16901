import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Form, isPlainForm } from "../../app/components/form";

describe("the site's forms", () => {
  it("are plain forms only for an absolute site action, GET or POST, and attributes alone", () => {
    expect(isPlainForm({ method: "post", action: "/order/3", className: "mt-2", children: null })).toBe(true);
    expect(isPlainForm({ method: "POST", action: "/logout", id: "f", noValidate: true, "data-testid": "x" })).toBe(true);
    expect(isPlainForm({ action: "/models?category=toys" })).toBe(true);
    // the current route's action, a relative one, another site's
    expect(isPlainForm({ method: "post" })).toBe(false);
    expect(isPlainForm({ method: "post", action: "edit" })).toBe(false);
    expect(isPlainForm({ method: "post", action: "//elsewhere.test/x" })).toBe(false);
    // another method, or what only React Router's Form does
    expect(isPlainForm({ method: "delete", action: "/order/3" })).toBe(false);
    for (const extra of ["onSubmit", "reloadDocument", "replace", "state", "navigate", "fetcherKey", "preventScrollReset"]) {
      expect(isPlainForm({ method: "post", action: "/order/3", [extra]: true })).toBe(false);
    }
  });

  it("draw the attributes Remix's Form draws, marked for the root's submit handler", () => {
    const html = renderToStaticMarkup(
      createElement(Form, { method: "POST", action: "/logout", className: "inline" }, createElement("button", null, "Sign Out")),
    );
    expect(html).toBe(
      '<form method="post" action="/logout" data-discover="true" data-in-app="" class="inline"><button>Sign Out</button></form>',
    );
  });
});

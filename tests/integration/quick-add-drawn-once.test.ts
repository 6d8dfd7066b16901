// The printer dashboard's quick add-printer form as it first shows is drawn once per process (UsuallyFixed,
// entry.server.tsx) and hydrated in the browser: the page must carry exactly what React draws for the form in
// the page itself, router and all, or the browser's hydration would not match it.
import { describe, expect, it } from "vitest";
import * as entry from "../../app/entry.server";
import * as printerDashboardPage from "../../app/routes/printer-dashboard";
import { appRouter } from "../setup/app-router";
import { createTestPrinter } from "../setup/jobs";
import { createTestUser, formRequest, getRequest, sessionCookieFor } from "../setup/requests";

const handle = appRouter({ "routes/printer-dashboard": printerDashboardPage });
const UNTOUCHED = "quick-add-printer-untouched";

/** The quick form's part of the dashboard's document: from its wrapper to the end of its disclosure. */
async function quickForm(response: Response): Promise<string> {
  expect(response.status).toBe(200);
  const html = await response.text();
  const start = html.indexOf('<div class="contents"><details class="card mt-4 p-4" data-testid="quick-add-printer"');
  expect(start).toBeGreaterThan(0);
  return html.slice(start, html.indexOf("</details></div>", start) + "</details></div>".length);
}

describe("the dashboard's quick form, drawn once", () => {
  it("is the HTML the page's own render draws for it, which the browser hydrates", async () => {
    const owner = await createTestUser({ userType: "printer_owner" });
    await createTestPrinter(owner.id);
    const cookie = await sessionCookieFor(owner.id);
    const parts = entry.fixedParts();
    const once = parts[UNTOUCHED]!;
    expect(once).toContain('<form method="post" action="/printer-dashboard"');
    expect(once).toContain("<!-- -->"); // text separators, as hydration expects them

    const given = await quickForm(await handle(getRequest("/printer-dashboard", cookie)));
    expect(given).toBe(`<div class="contents">${once}</div>`);
    // the same page with the part drawn in it, as the browser will draw it
    delete parts[UNTOUCHED];
    try {
      const drawnInPage = await quickForm(await handle(getRequest("/printer-dashboard", cookie)));
      expect(drawnInPage).toBe(given);
    } finally {
      parts[UNTOUCHED] = once;
    }
  });

  it("is drawn in the page, with what was posted and what is missing, after a refused post", async () => {
    const owner = await createTestUser({ userType: "printer_owner" });
    const cookie = await sessionCookieFor(owner.id);
    const response = await handle(
      formRequest("/printer-dashboard", { intent: "quick-add-printer", city: "Loveland", materials: "PLA" }, { cookie }),
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("Please select a printer model");
    expect(html).toContain('value="Loveland"');
    expect(html).not.toContain(entry.fixedParts()[UNTOUCHED]!);
  });
});

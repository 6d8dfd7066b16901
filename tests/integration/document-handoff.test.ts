// A page's document through the app's router: its loader data is read ahead of the render
// (utils/handoff.server.ts) and handed to the browser in one piece, then the end of the stream, as the browser's
// Remix reads it; and the document is drawn whole, no part left to the browser.
import { describe, expect, it } from "vitest";
import * as printerDashboardPage from "../../app/routes/printer-dashboard";
import { appRouter } from "../setup/app-router";
import { createTestPrinter } from "../setup/jobs";
import { createTestUser, getRequest, sessionCookieFor } from "../setup/requests";

const handle = appRouter({ "routes/printer-dashboard": printerDashboardPage });

describe("a document's loader data", () => {
  it("reaches the page whole, in one piece before the stream's end", async () => {
    const owner = await createTestUser({ userType: "printer_owner", firstName: "Ünal" });
    await createTestPrinter(owner.id, { name: "Garage <Prusa> & co" });
    const response = await handle(getRequest("/printer-dashboard", await sessionCookieFor(owner.id)));
    expect(response.status).toBe(200);
    const html = await response.text();
    const pieces = [...html.matchAll(/<script>window\.__remixContext\.streamController\.enqueue\((".*?")\);<\/script>/g)];
    expect(pieces).toHaveLength(1);
    const data = JSON.parse(
      pieces[0]![1]!
        .replace(/\\u003c/g, "<")
        .replace(/\\u003e/g, ">")
        .replace(/\\u0026/g, "&"),
    ) as string;
    expect(data).toContain('"routes/printer-dashboard"');
    expect(data).toContain('"Garage <Prusa> & co"');
    expect(data).toContain('"Ünal"');
    expect(html.indexOf("streamController.close()")).toBeGreaterThan(pieces[0]!.index!);
    expect(html.match(/streamController\.close\(\)/g)).toHaveLength(1);
    expect(html).not.toContain("<!--$!");
    expect(html).toContain("Hi <!-- -->Ünal<!-- -->, manage your printers");
  });
});

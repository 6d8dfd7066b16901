// The printer dashboard's quick add-printer form after a refused post: drawn in the page with what was posted
// and what is missing.
import { describe, expect, it } from "vitest";
import * as printerDashboardPage from "../../app/routes/printer-dashboard";
import { appRouter } from "../setup/app-router";
import { createTestUser, formRequest, sessionCookieFor } from "../setup/requests";

const handle = appRouter({ "routes/printer-dashboard": printerDashboardPage });

describe("the dashboard's quick form", () => {
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
  });
});

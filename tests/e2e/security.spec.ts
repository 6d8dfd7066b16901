import { expect, jsDisabled, test } from "./fixtures";

// The Content-Security-Policy lets Remix's scripts, the map, the 3D viewer's worker and the
// toasts work, and nothing else: a page that breaks under it shows a violation in the console.
test.describe("security headers", () => {
  test("pages carry a per-request nonce that Remix's scripts use, and the other headers", async ({ page }) => {
    const first = await page.request.get("/");
    const second = await page.request.get("/");
    const csp = first.headers()["content-security-policy"];
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(second.headers()["content-security-policy"]).not.toContain(nonce!);
    expect(csp).toContain("connect-src 'self'");
    expect(first.headers()["cross-origin-opener-policy"]).toBe("same-origin");
    expect(first.headers()["permissions-policy"]).toContain("camera=()");
    const html = await first.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const attributes of scripts) expect(attributes).toContain(`nonce="${nonce}"`);
  });

  test("the map, the catalogue and sign-in run without a policy violation", async ({ page }) => {
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.goto("/browse?view=map&location=Loveland%2C+CO");
    if (jsDisabled()) await expect(page.getByTestId("map-noscript")).toBeVisible();
    // the four seeded printers near Loveland, and any other spec's printers there
    else await expect.poll(() => page.locator(".printer-marker").count()).toBeGreaterThanOrEqual(4);
    await page.goto("/models");
    await page.goto("/auth");
    await page.getByLabel("Email").fill("nobody@printnear.test");
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByText("Invalid email or password")).toBeVisible();
    expect(violations).toEqual([]);
  });
});

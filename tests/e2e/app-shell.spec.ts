import { expect, jsDisabled, test } from "./fixtures";

test.describe("the installable app", () => {
  test("the manifest is valid: names, standalone, start URL, colours and 192/512 icons incl. maskable", async ({
    page,
    request,
  }) => {
    await page.goto("/");
    const href = await page.locator('link[rel="manifest"]').getAttribute("href");
    expect(href).toBe("/manifest.webmanifest");
    const response = await request.get(href!);
    expect(response.ok()).toBe(true);
    expect(response.headers()["content-type"]).toMatch(/application\/manifest\+json|application\/json/);
    const manifest = await response.json();
    expect(manifest).toMatchObject({ name: expect.any(String), short_name: "Printnear", display: "standalone", scope: "/" });
    expect(manifest.start_url).toMatch(/^\//);
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
    const icons = manifest.icons as Array<{ src: string; sizes: string; type: string; purpose: string }>;
    for (const size of ["192x192", "512x512"]) expect(icons.some((i) => i.sizes === size && i.purpose === "any")).toBe(true);
    expect(icons.some((i) => i.purpose === "maskable" && i.sizes === "512x512")).toBe(true);
    for (const icon of icons) {
      const image = await request.get(icon.src);
      expect(image.ok(), icon.src).toBe(true);
      const bytes = await image.body();
      // a PNG whose header says the listed size
      expect(bytes.subarray(1, 4).toString("ascii")).toBe("PNG");
      expect(`${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`).toBe(icon.sizes);
    }
  });

  test("the service worker registers on every page and shows the offline page when the network is gone", async ({
    page,
    context,
  }) => {
    await page.goto("/how-it-works");
    if (jsDisabled()) {
      // without JavaScript nothing registers and the page is complete as it is
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(await context.serviceWorkers()).toHaveLength(0);
      return;
    }
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(new URL(scope).pathname).toBe("/");
    await expect.poll(() => context.serviceWorkers().map((w) => new URL(w.url()).pathname)).toContain("/sw.js");
    await page.reload();
    await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);

    await context.setOffline(true);
    await page.goto("/pricing").catch(() => null);
    await expect(page.getByRole("heading", { name: "You're offline" })).toBeVisible();
    await context.setOffline(false);
    await page.goto("/pricing");
    await expect(page.getByRole("heading", { name: "You're offline" })).toHaveCount(0);
  });

  test("the built worker carries the build's version and drops earlier versions' caches on activate", async ({
    page,
    request,
  }) => {
    const worker = await (await request.get("/sw.js")).text();
    const version = /const VERSION = "([^"]*)";/.exec(worker)?.[1];
    expect(version).toMatch(/^[0-9a-f]{12}$/);
    if (jsDisabled()) return; // without JavaScript no worker registers (the test above checks it)
    // caches an earlier build left behind, made before this build's worker is installed
    await page.goto("/offline.html");
    await page.evaluate(async () => {
      await (await caches.open("printnear-static-v0ld")).put("/assets/old-abc123.js", new Response("old"));
      await caches.open("printnear-shell-v0ld");
    });
    await page.goto("/how-it-works");
    await page.evaluate(async () => void (await navigator.serviceWorker.ready));
    await expect.poll(() => page.evaluate(() => caches.keys())).not.toContain("printnear-static-v0ld");
    const keys = await page.evaluate(() => caches.keys());
    expect(keys).not.toContain("printnear-shell-v0ld");
    expect(keys).toContain(`printnear-shell-v${version}`);
  });

  test("the install banner is not shown where the browser offers no install prompt", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    await expect(page.getByTestId("install-banner")).toHaveCount(0);
  });

  test("the install banner follows the browser's install prompt and remembers its dismissal", async ({ page }) => {
    await page.goto("/");
    const offer = () =>
      page.evaluate(() => {
        const event = Object.assign(new Event("beforeinstallprompt", { cancelable: true }), {
          prompt: async () => {},
          userChoice: Promise.resolve({ outcome: "dismissed" }),
        });
        window.dispatchEvent(event);
      });
    if (jsDisabled()) {
      // no page script listens without JavaScript: nothing to install from, nothing shown
      await expect(page.getByTestId("install-banner")).toHaveCount(0);
      return;
    }
    // the app's effects have run once its service worker is ready
    await page.evaluate(async () => void (await navigator.serviceWorker.ready));
    await offer();
    await expect(page.getByTestId("install-banner")).toBeVisible();
    await page.getByRole("button", { name: "Dismiss install banner" }).click();
    await expect(page.getByTestId("install-banner")).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem("printnear-install-dismissed"))).not.toBeNull();
    await page.reload();
    await page.evaluate(async () => void (await navigator.serviceWorker.ready));
    await offer();
    await expect(page.getByTestId("install-banner")).toHaveCount(0);
  });
});

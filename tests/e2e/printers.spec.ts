import type { Page } from "@playwright/test";
import { and, eq } from "drizzle-orm";
import { printers, printJobs, users } from "../../db/schema";
import { getDb } from "../../app/utils/db.server";
import { hashPassword } from "../../app/utils/password.server";
import { DEMO, expect, jsDisabled, signInAs, test } from "./fixtures";

// The js and no-js projects run side by side on one database, so every printer made here has its own name
// and lives in Colorado Springs, far outside the Loveland searches the other tests count on.
const tag = () => `${jsDisabled() ? "nojs" : "js"}${Date.now().toString(36)}`;
const FAR_AWAY = "Colorado Springs, CO";

/** A brand-new customer account, signed in. */
async function signInAsNewCustomer(page: Page) {
  const db = await getDb();
  const name = `owner_${tag()}`;
  const [user] = await db
    .insert(users)
    .values({
      email: `${name}@example.test`,
      username: name,
      firstName: "Nova",
      lastName: "Owner",
      passwordHash: await hashPassword("a long enough password"),
    })
    .returning();
  return signInAs(page, user!.email);
}

async function printerId(name: string) {
  const db = await getDb();
  const [row] = await db.select({ id: printers.id }).from(printers).where(eq(printers.name, name));
  return row!.id;
}

const cardNames = (page: Page) => page.getByTestId("printer-card").locator("h3").allInnerTexts();

test.describe("printer owners", () => {
  test("a new owner adds a printer from a preset, edits it, stocks red PETG, goes offline and online, and deletes it", async ({
    page,
  }) => {
    const user = await signInAsNewCustomer(page);
    const name = `Preset MK4 ${tag()}`;
    await page.goto("/add-printer");
    await page.getByLabel("Printer name").fill(name);
    await page.getByLabel("Printer model").selectOption("Prusa MK4");
    if (!jsDisabled()) {
      // Choosing a known model fills and locks the build volume and suggests price and materials.
      await expect(page.getByLabel("X (mm)")).toHaveValue("250");
      await expect(page.getByLabel("Y (mm)")).toHaveValue("210");
      await expect(page.getByLabel("Z (mm)")).toHaveJSProperty("readOnly", true);
      await expect(page.getByLabel("Price per gram (USD)")).toHaveValue("0.18");
      await expect(page.getByLabel("PETG", { exact: true })).toBeChecked();
    }
    await page.getByLabel("Location").fill(FAR_AWAY);
    await page.getByRole("button", { name: "Add Printer to Marketplace" }).click();
    await expect(page).toHaveURL(/\/printer-dashboard$/);
    await expect(page.getByTestId("toast")).toContainText("Printer added successfully!");
    const card = page.getByTestId("owner-printer").filter({ hasText: name });
    await expect(card).toContainText("Prusa MK4");
    await expect(card).toContainText("250 × 210 × 220 mm");
    await expect(card).toContainText("$0.18/g");
    await expect(page.getByTestId("stat-activePrinters")).toHaveText("1");
    const db = await getDb();
    const [after] = await db.select({ userType: users.userType }).from(users).where(eq(users.id, user.id));
    expect(after!.userType).toBe("both");

    await card.getByRole("link", { name: "Edit Settings" }).click();
    await expect(page.getByRole("heading", { name: "Printer settings" })).toBeVisible();
    // the owner's own page keeps what they typed; everyone else sees "City, ST ZIP"
    await expect(page.getByLabel("Location")).toHaveValue(FAR_AWAY);
    await page.getByLabel("Price per gram (USD)").fill("0.15");
    await page.getByLabel("Description").fill("Quiet, in a heated garage.");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expect(page.getByTestId("toast")).toContainText("Printer settings updated successfully.");
    await expect(card).toContainText("$0.15/g");

    await card.getByRole("link", { name: "Filament Inventory" }).click();
    const addForm = page.getByRole("form", { name: "Add filament" });
    await addForm.getByLabel("Material").selectOption("PETG");
    await addForm.getByLabel("Colour").selectOption("Red");
    await addForm.getByLabel("Grams in stock").fill("750");
    await addForm.getByRole("button", { name: "Add to Inventory" }).click();
    await expect(page.getByTestId("toast")).toContainText("Red PETG: 750 g in stock.");
    await expect(page.getByLabel("Grams of Red PETG")).toHaveValue("750");

    await page.goto("/printer-dashboard");
    const onlineSwitch = page.getByRole("switch", { name: `${name} online` });
    await expect(onlineSwitch).toHaveAttribute("aria-checked", "true");
    await onlineSwitch.click();
    await expect(page.getByTestId("toast")).toContainText("Status updated");
    await expect(onlineSwitch).toHaveAttribute("aria-checked", "false");
    await expect(card).toContainText("Offline");
    await onlineSwitch.click();
    await expect(onlineSwitch).toHaveAttribute("aria-checked", "true");

    // The printer is found with its stock: red PETG near Colorado Springs.
    await page.goto(`/printers?location=${encodeURIComponent(FAR_AWAY)}&material=PETG&color=Red&weight=100`);
    await expect(page.getByTestId("printer-card").filter({ hasText: name })).toContainText("for this design");

    await page.goto("/printer-dashboard");
    await card.getByText("Delete", { exact: true }).click();
    await expect(card.getByRole("alertdialog")).toContainText(
      "Are you sure you want to delete this printer? This action cannot be undone.",
    );
    await card.getByRole("button", { name: `Yes, delete ${name}` }).click();
    await expect(page.getByTestId("toast")).toContainText("Printer deleted successfully.");
    await expect(page.getByTestId("owner-printer").filter({ hasText: name })).toHaveCount(0);
  });

  test("a Custom/Other printer takes its own build volume, and the form says what is missing", async ({ page }) => {
    await signInAsNewCustomer(page);
    const name = `Custom Voron ${tag()}`;
    await page.goto("/add-printer");
    await page.getByRole("button", { name: "Add Printer to Marketplace" }).click();
    await expect(page.getByText("Printer name is required")).toBeVisible();
    await expect(page.getByText("Printer model is required")).toBeVisible();
    await expect(page.getByText("Location is required")).toBeVisible();

    await page.getByLabel("Printer name").fill(name);
    await page.getByLabel("Printer model").selectOption("Custom/Other");
    await page.getByLabel(jsDisabled() ? "Model name for Custom/Other (optional)" : "Model name (optional)").fill("Voron 2.4");
    await page.getByLabel("X (mm)").fill("350");
    await page.getByLabel("Y (mm)").fill("350");
    await page.getByLabel("Z (mm)").fill("340");
    await page.getByLabel("Location").fill(FAR_AWAY);
    await page.getByLabel("Price per gram (USD)").fill("0.25");
    await page.getByRole("button", { name: "Add Printer to Marketplace" }).click();
    await expect(page.getByText("At least one material is required")).toBeVisible();
    await page.getByLabel("ABS", { exact: true }).check();
    await page.getByLabel("ASA", { exact: true }).check();
    await page.getByRole("button", { name: "Add Printer to Marketplace" }).click();
    await expect(page).toHaveURL(/\/printer-dashboard$/);
    const card = page.getByTestId("owner-printer").filter({ hasText: name });
    await expect(card).toContainText("Voron 2.4");
    await expect(card).toContainText("350 × 350 × 340 mm");
    await expect(card).toContainText("ABS, ASA");
  });

  test("the dashboard's quick form lists a printer from its model, its spool and its address, and says what is missing", async ({
    page,
  }) => {
    const user = await signInAsNewCustomer(page);
    await page.goto("/printer-dashboard");
    const quick = page.getByTestId("quick-add-printer");
    // a plain disclosure: closed at first, opened by its summary with or without JavaScript
    await expect(quick.getByLabel("Printer model")).toBeHidden();
    await quick.getByText("Quick Add Printer", { exact: true }).click();
    await quick.getByRole("button", { name: "Add Printer to Marketplace" }).click();
    await expect(quick.getByText("Please select a printer model")).toBeVisible();
    await expect(quick.getByText("Please select at least one material")).toBeVisible();
    await expect(quick.getByText("Please enter filament cost and weight")).toBeVisible();
    await expect(quick.getByText("Please enter complete address information")).toBeVisible();

    await quick.getByLabel("Printer model").selectOption("Bambu Lab A1 mini");
    if (!jsDisabled()) await expect(quick.getByLabel("TPU", { exact: true })).toBeChecked(); // the model's materials
    await quick.getByLabel("PLA", { exact: true }).check();
    await quick.getByLabel("Spool cost (USD)").fill("19.99");
    await quick.getByLabel("Spool weight").selectOption("500 g");
    if (!jsDisabled()) await expect(quick.getByTestId("quick-price-per-gram")).toHaveText("Price per gram: $0.0400");
    await quick.getByLabel("Street").fill("2 N Cascade Ave");
    await quick.getByLabel("City").fill("Colorado Springs");
    await quick.getByLabel("State").fill("co");
    await quick.getByLabel("ZIP code").fill("80903");
    await quick.getByRole("button", { name: "Add Printer to Marketplace" }).click();

    await expect(page).toHaveURL(/\/printer-dashboard$/);
    await expect(page.getByTestId("toast")).toContainText("Printer added successfully!");
    const card = page.getByTestId("owner-printer");
    await expect(card).toHaveCount(1);
    await expect(card).toContainText("Bambu Lab A1 mini");
    await expect(card).toContainText("2 N Cascade Ave, Colorado Springs, CO 80903");
    await expect(card).toContainText("$0.04/g");
    await expect(card).toContainText("180 × 180 × 180 mm");
    const db = await getDb();
    const [row] = await db.select().from(printers).where(eq(printers.ownerId, user.id));
    expect(row).toMatchObject({ ratePerKgCents: 4000, state: "CO", zip: "80903", isAvailable: true });
  });

  test("the dashboard's quick form, drawn once on the server, works as soon as it shows, without an error", async ({ page }) => {
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await signInAsNewCustomer(page);
    await page.goto("/printer-dashboard");
    if (!jsDisabled()) await page.waitForFunction(() => "__remixRouter" in window);
    const quick = page.getByTestId("quick-add-printer");
    await quick.getByText("Quick Add Printer", { exact: true }).click();
    await quick.getByLabel("Printer model").selectOption("Bambu Lab A1 mini");
    await quick.getByLabel("Spool cost (USD)").fill("19.99");
    await quick.getByLabel("Spool weight").selectOption("500 g");
    if (jsDisabled()) {
      // the page as it came: nothing ticked or worked out until the server answers
      await expect(quick.getByLabel("TPU", { exact: true })).not.toBeChecked();
      await expect(quick.getByTestId("quick-price-per-gram")).toHaveText(
        "Your price per gram is the spool's cost divided by its weight.",
      );
    } else {
      // React took over the HTML drawn once: the model ticks its materials and the price is worked out
      await expect(quick.getByLabel("TPU", { exact: true })).toBeChecked();
      await expect(quick.getByTestId("quick-price-per-gram")).toHaveText("Price per gram: $0.0400");
    }
    expect(errors).toEqual([]);
  });

  test("another user cannot change a printer through the page or the API", async ({ page }) => {
    await signInAs(page, DEMO.customer);
    const id = await printerId("Loveland Makerspace MK4");
    const edit = await page.goto(`/printers/${id}/edit`);
    expect(edit!.status()).toBe(404);
    const put = await page.request.put(`/api/printers/${id}`, { data: { isAvailable: false, name: "Taken over" } });
    expect(put.status()).toBe(403);
    expect(await put.json()).toEqual({ message: "Only the printer's owner can change it" });
    const del = await page.request.delete(`/api/printers/${id}`);
    expect(del.status()).toBe(403);
    const now = await (await page.request.get(`/api/printers/${id}`)).json();
    expect(now).toMatchObject({ name: "Loveland Makerspace MK4", isAvailable: true });
    // no street address or exact point for anyone but the owner
    expect(now).toMatchObject({ location: "Loveland, CO 80537", latitude: "40.40", longitude: "-105.07" });
  });
});

/** The seeded printers within reach of Loveland, CO, nearest first (public, 2-decimal points). */
const SEEDED_NEAR_LOVELAND = ["Loveland Makerspace MK4", "Berthoud Print Shop", "Fort Collins Fab Lab", "Old Town Ender"];

test.describe("customers find printers", () => {
  test("searching 'Loveland, CO' on /browse lists printers nearest first with their distance", async ({ page }) => {
    await page.goto("/browse");
    await expect(page.getByRole("heading", { name: "Find 3D Printers Near You" })).toBeVisible();
    await page.getByLabel("Location").fill("Loveland, CO");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/location=Loveland%2C\+CO/);
    // a retrying assertion: without JavaScript the new page may still be loading when the URL changes
    // distances run from the public (2-decimal) points, which puts the Fab Lab just ahead of the Ender
    // other specs add printers of their own nearby: the seeded ones keep their order among them
    await expect
      .poll(async () =>
        (await page.getByTestId("printer-card").locator("h3").allTextContents()).filter((name) =>
          SEEDED_NEAR_LOVELAND.includes(name),
        ),
      )
      .toEqual(SEEDED_NEAR_LOVELAND);
    const first = page.getByTestId("printer-card").filter({ has: page.locator("h3", { hasText: "Loveland Makerspace MK4" }) });
    await expect(first).toContainText("Loveland, CO 80537");
    await expect(page.getByText("500 E 3rd St")).toHaveCount(0);
    await expect(first.getByTestId("distance")).toHaveText(/· \d+\.\d mi away/);
    await expect(first).toContainText("Leo L.");
    await expect(first).toContainText("$0.10/g");
    await expect(first.getByRole("link", { name: "Select Printer" })).toHaveAttribute("href", /\/upload\?printer=\d+$/);

    await page.getByLabel("Availability").selectOption("false");
    await page.getByRole("button", { name: "Search" }).click();
    const busy = page.getByTestId("printer-card").filter({ hasText: "Loveland Mini" });
    await expect(busy.getByText("Busy", { exact: true })).toBeVisible();
    await expect(busy.getByRole("button", { name: "Currently Busy" })).toBeDisabled();

    await page.getByLabel("Location").fill("Nowhere Special, ZZ");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByTestId("location-notice")).toContainText("We couldn't find");
    await expect(page.getByTestId("printer-card")).toHaveCount(0);
  });

  test("a bare city name resolves when one state has it, offers City, ST links when several do, and suggests for a misspelling", async ({
    page,
  }) => {
    await page.goto("/printers?location=Loveland&available=false");
    const notice = page.getByTestId("location-notice");
    await expect(notice).toContainText("“Loveland” is in more than one state");
    await expect(page.getByTestId("printer-card")).toHaveCount(0);
    await notice.getByRole("link", { name: "Loveland, CO" }).click();
    await expect(page).toHaveURL(/location=Loveland%2C\+CO/);
    await expect(page).toHaveURL(/available=false/);
    await expect(page.getByTestId("location-notice")).toContainText(/Within \d+ mi of Loveland, CO/);
    await expect(page.getByTestId("printer-card").first()).toBeVisible();

    for (const path of ["/browse", "/choose-printer"]) {
      await page.goto(`${path}?location=Lovland%2C%20CO`);
      await expect(page.getByTestId("location-notice")).toContainText(
        "We couldn't find “Lovland, CO”. Did you mean one of these?",
      );
      await expect(page.getByTestId("printer-card")).toHaveCount(0);
      await page.getByTestId("location-choices").getByRole("link", { name: "Loveland, CO" }).click();
      await expect(page.getByTestId("location-notice")).toContainText("Loveland, CO");
      await expect(page.getByTestId("location-notice")).not.toContainText("couldn't find");
    }

    await page.goto("/browse?location=Berthoud");
    await expect(page.getByTestId("location-notice")).toContainText("Berthoud, CO");
    await expect(page.getByTestId("printer-card").first()).toBeVisible();
  });

  test("/printers after a 200 mm tall PETG red part lists only printers that fit it with red PETG in stock, each with its price", async ({
    page,
  }) => {
    await page.goto("/printers?material=PETG&color=Red&weight=100&minX=50&minY=50&minZ=200&location=Loveland%2C%20CO&radius=25");
    await expect(page.getByTestId("design-banner")).toContainText("Design Uploaded Successfully!");
    await expect(page.getByTestId("design-banner")).toContainText("Found 4 compatible printer(s) in your area");
    await expect(page.getByRole("heading", { name: "Find Local 3D Printers" })).toBeVisible();
    await expect(page.getByText("Compatible printers for your uploaded design")).toBeVisible();
    await expect(page.getByTestId("results-count")).toHaveText(/4 printer\(s\) found\s*Design-Compatible/);
    expect((await cardNames(page)).sort()).toEqual([
      "Berthoud Print Shop",
      "Fort Collins Fab Lab",
      "Loveland Makerspace MK4",
      "Old Town Ender",
    ]);
    const prices = await page.getByTestId("design-price").allInnerTexts();
    expect(prices).toHaveLength(4);
    for (const text of prices) expect(text).toMatch(/\$\d+\.\d\d for this design/);

    // Too heavy for the makerspace's 300 g of red PETG.
    await page.goto("/printers?material=PETG&color=Red&weight=500&minX=50&minY=50&minZ=200&location=Loveland%2C%20CO&radius=25");
    expect(await cardNames(page)).not.toContain("Loveland Makerspace MK4");

    await page.goto("/printers?material=PETG&color=Purple&weight=100&location=Loveland%2C%20CO&radius=25");
    await expect(page.getByTestId("empty-state")).toContainText("No compatible printers found");
    await page.getByRole("link", { name: "View All Printers" }).click();
    await expect(page).toHaveURL(/\/printers$/);
    await expect(page.getByTestId("design-banner")).toHaveCount(0);
  });

  test("the map shows one marker per printer, the legend and the selection rules; without JavaScript the list carries everything", async ({
    page,
  }) => {
    await page.goto("/browse?view=map&location=Loveland%2C+CO");
    await expect(page.getByRole("heading", { name: "Available Printers in Area" })).toBeVisible();
    const rows = page.getByTestId("area-row");
    for (const name of SEEDED_NEAR_LOVELAND) await expect(rows.filter({ hasText: name })).toHaveCount(1);
    const printersListed = await rows.count();
    await expect(page.getByRole("list", { name: "Map legend" })).toContainText("Available");
    if (jsDisabled()) {
      await expect(page.getByTestId("map-noscript")).toContainText("The map needs JavaScript");
      await expect(page.getByTestId("area-row").first().getByRole("link", { name: "Select" })).toHaveAttribute(
        "href",
        /\/upload\?printer=\d+/,
      );
      return;
    }
    const markers = page.locator(".printer-marker");
    await expect(markers).toHaveCount(printersListed);
    expect(await page.locator(".printer-marker-available").count()).toBeGreaterThanOrEqual(SEEDED_NEAR_LOVELAND.length);
    await expect(page.locator(".leaflet-control-attribution")).toContainText("OpenStreetMap");
    // several printers: the map fits them all, so every marker sits inside the map's box
    const box = (await page.locator(".leaflet-container").boundingBox())!;
    await expect(async () => {
      for (const m of await markers.all()) {
        const b = (await m.boundingBox())!;
        expect(b.x >= box.x && b.x + b.width <= box.x + box.width && b.y >= box.y && b.y + b.height <= box.y + box.height).toBe(
          true,
        );
      }
    }).toPass({ timeout: 5000 });
    const marker = page.getByRole("button", { name: "Berthoud Print Shop, Available" });
    // other specs' printers may stand on the same spot and cover it: the click goes to this marker itself
    await marker.dispatchEvent("click");
    await expect(page.locator(".printer-marker-selected")).toHaveCount(1);
    await expect(page.getByRole("button", { name: "Berthoud Print Shop, Available, selected" })).toBeVisible();
    await expect(page.locator(".printer-marker-selected")).toHaveCSS("width", "35px");
    await expect(page.locator(".printer-marker-available").first()).toHaveCSS("width", "25px");
    const popup = page.locator(".leaflet-popup-content");
    await expect(popup).toContainText("Berthoud Print Shop");
    await expect(popup).toContainText("Bella Berthold");
    await expect(popup).toContainText("PLA, PETG, ABS, ASA, TPU");
    await expect(popup).toContainText("$0.12/g");
    await expect(popup).toContainText("Berthoud, CO 80513");
    await expect(popup).not.toContainText("Mountain Ave");
    const select = popup.getByRole("link", { name: "Select Printer" });
    // the map may still be zooming to the chosen printer or panning to show its popup: click once the link stays put
    await expect(async () => {
      const before = await select.boundingBox();
      await page.waitForTimeout(300);
      expect(await select.boundingBox()).toEqual(before);
    }).toPass({ timeout: 5000 });
    await select.click();
    // /upload asks a visitor to sign in first and comes back to the chosen printer.
    await expect(page).toHaveURL(/\/upload\?printer=\d+$|redirectTo=%2Fupload%3Fprinter%3D\d+$/);
  });

  for (const width of [1366, 390]) {
    test(`at ${width} px a marker's popup opens wholly inside the map, with the printer's name, model and owner (the map needs JavaScript)`, async ({
      page,
    }) => {
      test.skip(jsDisabled(), "the map needs JavaScript; without it the list carries every printer");
      const customer = await signInAs(page, DEMO.customer);
      const [draft] = await (
        await getDb()
      )
        .select({ id: printJobs.id })
        .from(printJobs)
        .where(and(eq(printJobs.customerId, customer.id), eq(printJobs.status, "draft")))
        .limit(1);
      await page.setViewportSize({ width, height: 900 });
      for (const path of [
        "/browse?view=map&location=Loveland%2C+CO",
        `/choose-printer?draftId=${draft!.id}`,
        "/printers?view=map&location=Loveland%2C+CO",
      ]) {
        await page.goto(path);
        const map = page.locator(".leaflet-container");
        await map.scrollIntoViewIfNeeded();
        // other specs' printers may stand on the same spot and cover it: the click goes to this marker itself
        await page.getByRole("button", { name: /^Berthoud Print Shop, Available/ }).dispatchEvent("click");
        const popup = page.locator(".leaflet-popup");
        await expect(popup).toContainText("Berthoud Print Shop");
        // the map zooms to the chosen printer and pans to show its popup: measure once it has stopped
        let box = await popup.boundingBox();
        await expect(async () => {
          const before = box;
          await page.waitForTimeout(300);
          box = await popup.boundingBox();
          expect(box).toEqual(before);
        }).toPass({ timeout: 5000 });
        const frame = (await map.boundingBox())!;
        const where = `${path} at ${width}: popup ${JSON.stringify(box)} in map ${JSON.stringify(frame)}`;
        expect(box!.y, where).toBeGreaterThanOrEqual(frame.y);
        expect(box!.x, where).toBeGreaterThanOrEqual(frame.x);
        expect(box!.y + box!.height, where).toBeLessThanOrEqual(frame.y + frame.height);
        expect(box!.x + box!.width, where).toBeLessThanOrEqual(frame.x + frame.width);
        for (const line of ["Berthoud Print Shop", "Bambu Lab P1S", "Bella Berthold"]) {
          await expect(popup.getByText(line, { exact: true })).toBeInViewport();
        }
      }
    });
  }

  test("the map loads Leaflet only on pages that show a map", async ({ page }) => {
    test.skip(jsDisabled(), "no scripts load without JavaScript");
    const leaflet: string[] = [];
    page.on("request", (request) => {
      if (/leaflet/i.test(request.url())) leaflet.push(request.url());
    });
    await page.goto("/browse");
    await expect(page.getByTestId("printer-card").first()).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(leaflet).toEqual([]);
    await page.getByRole("link", { name: "Map" }).click();
    await expect(page.locator(".printer-marker").first()).toBeVisible();
    expect(leaflet.some((url) => url.includes("leaflet"))).toBe(true);
  });

  test("/choose-printer lists, maps and hands the customer's draft to /submit-print", async ({ page }) => {
    const customer = await signInAs(page, DEMO.customer);
    const db = await getDb();
    const [draft] = await db
      .select({ id: printJobs.id })
      .from(printJobs)
      .where(and(eq(printJobs.customerId, customer.id), eq(printJobs.status, "draft")))
      .limit(1);
    await page.goto(`/choose-printer?draftId=${draft!.id}`);
    await expect(page.getByRole("heading", { name: "Choose a Printer" })).toBeVisible();
    await page.getByLabel("Location").fill("Loveland, CO");
    await page.getByLabel("Material", { exact: true }).selectOption("PETG");
    await page.getByRole("button", { name: "Search" }).click();
    const first = page.getByTestId("printer-card").first();
    await expect(first).toContainText("Loveland Makerspace MK4");
    await expect(first.getByTestId("design-price")).toContainText("for this design");
    await expect(first.getByRole("link", { name: "Select Printer" })).toHaveAttribute(
      "href",
      new RegExp(`/submit-print\\?printerId=\\d+&draftId=${draft!.id}$`),
    );
    if (!jsDisabled()) await expect(page.locator(".printer-marker")).not.toHaveCount(0);
  });

  test("printers without a photo show a drawing of their model, or of its family", async ({ page }) => {
    const res = await page.request.get("/api/printer-images/family-corexy.svg");
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toContain("image/svg+xml");
    await page.goto("/browse");
    // the seeded printers have no photos of their own: each card shows its model's drawing (all the
    // demo's models are presets), else its family's
    const sources = await page
      .getByTestId("printer-card")
      .locator("img")
      .evaluateAll((imgs) => imgs.map((img) => img.getAttribute("src")));
    expect(sources.length).toBeGreaterThan(0);
    for (const src of sources) {
      expect(src).toMatch(
        /^(\/printer-models\/[a-z0-9-]+\.svg|\/api\/printer-images\/(family-(corexy|bedslinger|generic)\.svg|[\w.-]+))$/,
      );
    }
    expect(sources.some((src) => src?.startsWith("/printer-models/"))).toBe(true);
    const own = await page.request.get(sources.find((src) => src?.startsWith("/printer-models/"))!);
    expect(own.status()).toBe(200);
    // a drawing is shown whole, its model's name at its foot included, on the cards as on the printer's page:
    // cropped to the card, every printer looked like the same frame
    const drawingFits = (path: string) =>
      page
        .locator(`${path === "/browse" ? "[data-testid=printer-card] " : "main "}img[src$=".svg"]`)
        .evaluateAll((imgs) => imgs.map((img) => getComputedStyle(img).objectFit));
    expect(new Set(await drawingFits("/browse"))).toEqual(new Set(["contain"]));
    await page.goto(`/printers/${await printerId("Loveland Makerspace MK4")}`);
    expect(new Set(await drawingFits("/printers"))).toEqual(new Set(["contain"]));
  });
});

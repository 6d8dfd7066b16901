import { DEMO, expect, jsDisabled, test } from "./fixtures";

test.describe("accounts", () => {
  test("sign up, sign out and sign in again", async ({ page }) => {
    const name = `newbie${Date.now()}${jsDisabled() ? "n" : "j"}`;
    await page.goto("/auth?tab=signup");
    await expect(page.getByRole("tab", { name: "Sign Up" })).toHaveAttribute("aria-selected", "true");
    await page.getByLabel("Username").fill(name);
    await page.getByLabel("Email").fill(`${name}@example.test`);
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByLabel("Send me the Printnear newsletter").check();
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId("toast")).toContainText("Account Created!");
    // a new account has not been here before
    await expect(page.getByRole("heading", { name: `Welcome, ${name}`, exact: true })).toBeVisible();
    await expect(page.getByText("Welcome back,")).toHaveCount(0);

    await page.getByLabel("Account menu").click();
    await page.getByRole("button", { name: "Sign Out" }).first().click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("link", { name: "Get Started" })).toBeVisible();

    await page.goto("/auth");
    await page.getByLabel("Email").fill(`${name}@example.test`);
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId("toast")).toContainText("Welcome back!");
  });

  test("a wrong password gets the Login Failed message", async ({ page }) => {
    await page.goto("/auth");
    await page.getByLabel("Email").fill(DEMO.customer);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Login Failed" })).toContainText("Invalid email or password");
    await expect(page).toHaveURL(/\/auth/);
  });

  test("a signed-out visitor on /dashboard signs in and lands back there", async ({ page }) => {
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fdashboard/);
    await page.getByLabel("Email").fill(DEMO.customer);
    await page.getByLabel("Password").fill(DEMO.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { name: "Welcome back, Casey" })).toBeVisible();
  });

  test("/login sends people to /auth", async ({ page }) => {
    await page.goto("/login");
    await expect(page).toHaveURL(/\/auth$/);
  });
});

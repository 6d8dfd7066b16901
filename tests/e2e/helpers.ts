// E2E helpers: people, printers and jobs of one test, written straight into the e2e database so
// tests running side by side (js and no-js) never share a conversation or a count.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { expect, type Page } from "@playwright/test";
import { printers, printJobs, users } from "../../db/schema";
import type { JobStatus } from "../../app/domain/job-status";
import { getDb, type Database } from "../../app/utils/db.server";
import { hashPassword } from "../../app/utils/password.server";

let counter = 0;

/** A user who signs in with the password "e2e-password-123"; `db` is the e2e database unless a test runs its own. */
export async function createPerson(firstName: string, userType: "customer" | "printer_owner" = "customer", db?: Database) {
  counter += 1;
  const tag = `${Date.now()}${counter}${Math.floor(Math.random() * 1e6)}`;
  db ??= await getDb();
  const [user] = await db
    .insert(users)
    .values({
      email: `${firstName.toLowerCase()}-${tag}@e2e.test`,
      username: `${firstName.toLowerCase()}_${tag}`,
      passwordHash: await hashPassword("e2e-password-123"),
      firstName,
      lastName: "Tester",
      userType,
      zipCode: "80525",
    })
    .returning();
  return user;
}

export async function createPrinterFor(ownerId: number, name = "E2E Printer", db?: Database) {
  db ??= await getDb();
  const [row] = await db
    .insert(printers)
    .values({
      ownerId,
      name,
      model: "Prusa MK4",
      description: "A tidy printer for e2e tests.",
      buildVolumeX: 250,
      buildVolumeY: 210,
      buildVolumeZ: 220,
      fitSmall: 210,
      fitMid: 220,
      fitLarge: 250,
      materials: ["PLA", "PETG"],
      ratePerKgCents: 12000,
      location: "Fort Collins, CO",
      city: "Fort Collins",
      state: "CO",
      zip: "80525",
      latitude: 40.53,
      longitude: -105.07,
    })
    .returning();
  return row;
}

export async function createJob(customerId: number, printerId: number, status: JobStatus, fileName: string) {
  const db = await getDb();
  const [row] = await db
    .insert(printJobs)
    .values({ customerId, printerId, status, fileName, submittedAt: new Date() })
    .returning();
  return row;
}

/** A port nothing listens on now, for a server a test starts of its own. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * The built server in mock mode on a port and a database file of its own (uploads and mail beside the file),
 * as a process group of its own, so the whole tree (tsx and its node) stops with a kill of -pid.
 */
export function startOwnServer(port: number, db: string, env: Record<string, string> = {}): ChildProcess {
  return spawn("node_modules/.bin/tsx", ["server/index.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      MOCKS: "true",
      PORT: String(port),
      DATABASE_URL: `file:${db}`,
      UPLOADS_DIR: `${db}-uploads`,
      MAIL_OUTBOX_DIR: `${db}-outbox`,
      ...env,
    },
    stdio: "ignore",
    detached: true,
  });
}

/** On /submit-print: shipping to ZIP 10001 (its estimate shown), to Sam Shipper at 350 Fifth Avenue, New York, in `state`. */
export async function shipToFifthAvenue(page: Page, state: string) {
  await page.getByLabel("Delivery method").selectOption("shipping");
  await page.getByRole("button", { name: "Update summary" }).click();
  await page.getByLabel("Delivery ZIP code").fill("10001");
  await page.getByRole("button", { name: "Update summary" }).click();
  await expect(page.getByText(/Ground Advantage \(estimated/)).toBeVisible();
  await page.getByLabel("Recipient name").fill("Sam Shipper");
  await page.getByLabel("Street address").fill("350 Fifth Avenue");
  await page.getByLabel("City").fill("New York");
  await page.getByLabel("State").selectOption(state);
}

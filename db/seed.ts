// Demo data: categories, users of every role, printers around Berthoud, Loveland and Fort Collins CO,
// library and catalogue models, and a customer's orders in every status (pickup, local delivery
// and shipping), priced by the price engine and the shipping rate table.
//   npm run db:seed              seed (refuses a database that already has users)
//   npm run db:seed -- --if-empty  seed only an empty database (the demo command)
import { fileURLToPath } from "node:url";
import { count } from "drizzle-orm";
import { openDatabase, type Database } from "../app/utils/db.server";
import { hashPassword } from "../app/utils/password.server";
import { migrateDatabase } from "./migrate";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, demoLoginsText } from "./demo-accounts";
import * as s from "./schema";
import { seedConversation, seedNotifications, seedReviews } from "./seed/activity";
import { seedJobs } from "./seed/jobs";
import { DEMO_CATALOGUE_MODELS, DEMO_LIBRARY_MODELS, seedCatalogueModels, seedLibraryModels } from "./seed/models";
import { DEMO_PRINTERS, seedPrinters } from "./seed/printers";
import { seedUsers } from "./seed/users";

export const CATEGORIES = [
  { id: 1, name: "Toys & Games", slug: "toys-games" },
  { id: 2, name: "Home & Garden", slug: "home-garden" },
  { id: 3, name: "Tools & Parts", slug: "tools-parts" },
  { id: 4, name: "Art & Decoration", slug: "art-decoration" },
  { id: 5, name: "Organization", slug: "organization" },
  { id: 6, name: "Tech & Gadgets", slug: "tech-gadgets" },
];

export async function seedDatabase(db: Database, { log = console.log }: { log?: (line: string) => void } = {}) {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.insert(s.categories).values(CATEGORIES).onConflictDoNothing();
  const userIds = await seedUsers(db, passwordHash);
  const printerIds = await seedPrinters(db, userIds);
  const customerId = userIds.get("casey")!;
  await seedLibraryModels(db, customerId);
  await seedCatalogueModels(db);
  const jobIds = await seedJobs(db, customerId, userIds, printerIds);
  await seedReviews(db, customerId, printerIds, jobIds);
  await seedConversation(db, customerId, userIds.get("bella")!, jobIds);
  await seedNotifications(db, customerId);
  log(
    `Seeded ${DEMO_ACCOUNTS.length} users, ${DEMO_PRINTERS.length} printers, ${DEMO_LIBRARY_MODELS.length} library models, ${DEMO_CATALOGUE_MODELS.length} catalogue models.`,
  );
  log(demoLoginsText());
}

async function main() {
  const ifEmpty = process.argv.includes("--if-empty");
  (await migrateDatabase()).close();
  const { client, db } = await openDatabase();
  try {
    const [{ n }] = await db.select({ n: count() }).from(s.users);
    if (n > 0) {
      if (ifEmpty) {
        console.log("The database already has data; leaving it as it is.");
        console.log(demoLoginsText());
        return;
      }
      throw new Error("The database already has users. Seed an empty database (delete data/app.db first).");
    }
    await seedDatabase(db);
  } finally {
    client.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main();
}

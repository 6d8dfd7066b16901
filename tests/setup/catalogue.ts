// Helpers for integration tests of the catalogue: each test starts with the site unasked, as at
// the start of a window: no fresh listings or back-off, no budget spent, no visitor's share used.
import { resetCatalogueSync } from "../../app/services/catalogue/sync.server";
import { resetCatalogueBudgets } from "../../app/services/catalogue/index.server";
import { getDb } from "../../app/utils/db.server";

export async function freshCatalogueWindow() {
  resetCatalogueSync();
  resetCatalogueBudgets();
  const db = await getDb();
  await db.run("DELETE FROM rate_limits WHERE key LIKE 'catalogue:%'");
}

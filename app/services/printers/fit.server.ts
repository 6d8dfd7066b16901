// Whether any printer on the platform can hold a part: a customer's scale that outgrows every build volume is refused.
import { sql } from "drizzle-orm";
import { AppError } from "~/domain/app-error";
import { SCALE_REFUSED_MESSAGE, type DesignScale } from "~/domain/design-scale";
import { minVolumeFilter } from "~/domain/printer-fit";
import { getDb } from "~/utils/db.server";

/** Refuses (field scalePercent) a part enlarged past every printer's build volume; with no printers yet there is nothing to judge by. */
export async function assertSomePrinterHolds(
  box: { boundingBoxX: number | null; boundingBoxY: number | null; boundingBoxZ: number | null },
  scale: DesignScale,
): Promise<void> {
  if (scale.scalePercent <= 100 && scale.units === "mm") return;
  if (box.boundingBoxX === null || box.boundingBoxY === null || box.boundingBoxZ === null) return;
  const [small, mid, large] = minVolumeFilter(box.boundingBoxX, box.boundingBoxY, box.boundingBoxZ);
  const db = await getDb();
  const [row] = await db.all<{ printers: number; holding: number }>(
    sql`SELECT count(*) AS printers, coalesce(sum(fit_small >= ${small} AND fit_mid >= ${mid} AND fit_large >= ${large}), 0) AS holding FROM printers`,
  );
  if (row && Number(row.printers) > 0 && Number(row.holding) === 0) {
    const size = [box.boundingBoxX, box.boundingBoxY, box.boundingBoxZ].map((v) => Math.round(v)).join(" × ");
    throw new AppError("invalid", `${SCALE_REFUSED_MESSAGE} (${size} mm).`, { field: "scalePercent" });
  }
}

// The landing page's statistics row and GET /api/stats: printersNearby, printsThisMonth, totalPrinters, totalOrders.
import { and, between, count, eq, gte, inArray, notInArray, sql } from "drizzle-orm";
import { printers, printJobs } from "../../db/schema";
import { boundingBox, haversineMiles, MAP_DEFAULT_CENTER, type LatLon } from "~/domain/geo";
import { PAID_STATUSES } from "~/domain/job-status";
import { lookupZip } from "~/services/gazetteer.server";
import { getDb, preparedQuery } from "~/utils/db.server";

export const NEARBY_RADIUS_MILES = 25;

export interface SiteStats {
  printersNearby: number;
  printsThisMonth: number;
  totalPrinters: number;
  totalOrders: number;
}

/** Midnight UTC on the 1st of the month that `now` falls in. */
export function startOfMonthUtc(now: Date = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/** The viewer's ZIP when it resolves, else the map's default centre. */
function statsCenter(zipCode: string | null | undefined): LatLon {
  const home = lookupZip(zipCode);
  return home ? { latitude: home.latitude, longitude: home.longitude } : MAP_DEFAULT_CENTER;
}

/** The statistics' four statements, built once: the landing page shows them on every visit. */
const availablePrintersInBox = preparedQuery((db) =>
  // the box is an indexed prefilter; the exact radius is checked below
  db
    .select({ latitude: printers.latitude, longitude: printers.longitude })
    .from(printers)
    .where(
      and(
        eq(printers.isAvailable, true),
        between(printers.latitude, sql.placeholder("minLat"), sql.placeholder("maxLat")),
        between(printers.longitude, sql.placeholder("minLon"), sql.placeholder("maxLon")),
      ),
    )
    .prepare(),
);
const paidJobsSince = preparedQuery((db) =>
  db
    .select({ n: count() })
    .from(printJobs)
    .where(and(inArray(printJobs.status, [...PAID_STATUSES]), gte(printJobs.submittedAt, sql.placeholder("since"))))
    .prepare(),
);
const allPrinters = preparedQuery((db) => db.select({ n: count() }).from(printers).prepare());
const placedOrders = preparedQuery((db) =>
  db
    .select({ n: count() })
    .from(printJobs)
    .where(notInArray(printJobs.status, ["draft", "cancelled", "rejected"]))
    .prepare(),
);

/** The numbers, "nearby" measured from the signed-in viewer's ZIP (visitors: the default centre). */
export async function getSiteStats(viewer: { zipCode?: string | null } = {}, now: Date = new Date()): Promise<SiteStats> {
  const db = await getDb();
  const center = statsCenter(viewer.zipCode);
  const box = boundingBox(center.latitude, center.longitude, NEARBY_RADIUS_MILES);

  const [candidates, [paid], [all], [orders]] = await Promise.all([
    availablePrintersInBox(db).all({ ...box }),
    paidJobsSince(db).all({ since: printJobs.submittedAt.mapToDriverValue(startOfMonthUtc(now)) }),
    allPrinters(db).all(),
    placedOrders(db).all(),
  ]);

  const printersNearby = candidates.filter(
    (p) =>
      p.latitude !== null &&
      p.longitude !== null &&
      haversineMiles(center, { latitude: p.latitude, longitude: p.longitude }) <= NEARBY_RADIUS_MILES,
  ).length;

  return {
    printersNearby,
    printsThisMonth: paid?.n ?? 0,
    totalPrinters: all?.n ?? 0,
    totalOrders: orders?.n ?? 0,
  };
}

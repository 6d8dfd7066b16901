// The landing page's statistics row and GET /api/stats: printersNearby, printsThisMonth, totalPrinters, totalOrders.
import { and, between, eq, sql } from "drizzle-orm";
import { printers } from "../../db/schema";
import { boundingBox, haversineMiles, MAP_DEFAULT_CENTER, type LatLon } from "~/domain/geo";
import { PAID_STATUSES } from "~/domain/job-status";
import { lookupZip } from "~/services/gazetteer.server";
import { quoted } from "~/services/orders/jobs.server";
import { getClient, getDb, preparedQuery } from "~/utils/db.server";

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

/** The printers near the viewer, built once: the landing page shows the statistics on every visit. */
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
/**
 * The three counts in one statement (?1: this month as 'YYYY-MM', UTC). The jobs are added up from job_counts,
 * which triggers keep by status and month of submission (drizzle/0014_marketplace_scale.sql): counting print_jobs
 * itself took 31 ms a view at 50,000 jobs. A job submitted on or after the month's first day is one whose
 * month is this one or later.
 */
const SITE_COUNTS = `SELECT
    (SELECT coalesce(sum(n), 0) FROM job_counts WHERE status IN (${quoted(PAID_STATUSES)}) AND month >= ?1) AS paid,
    (SELECT count(*) FROM printers) AS printers,
    (SELECT coalesce(sum(n), 0) FROM job_counts WHERE status NOT IN (${quoted(["draft", "cancelled", "rejected"])})) AS orders`;

/** The numbers, "nearby" measured from the signed-in viewer's ZIP (visitors: the default centre). */
export async function getSiteStats(viewer: { zipCode?: string | null } = {}, now: Date = new Date()): Promise<SiteStats> {
  const db = await getDb();
  const center = statsCenter(viewer.zipCode);
  const box = boundingBox(center.latitude, center.longitude, NEARBY_RADIUS_MILES);

  const [candidates, counts] = await Promise.all([
    availablePrintersInBox(db).all({ ...box }),
    getClient().then((client) => client.execute({ sql: SITE_COUNTS, args: [startOfMonthUtc(now).toISOString().slice(0, 7)] })),
  ]);
  const count = (key: string) => Number(counts.rows[0]?.[key] ?? 0);

  const printersNearby = candidates.filter(
    (p) =>
      p.latitude !== null &&
      p.longitude !== null &&
      haversineMiles(center, { latitude: p.latitude, longitude: p.longitude }) <= NEARBY_RADIUS_MILES,
  ).length;

  return {
    printersNearby,
    printsThisMonth: count("paid"),
    totalPrinters: count("printers"),
    totalOrders: count("orders"),
  };
}

// Full printer records as pages and the API read them: owner, inventory, distance, and exact places only
// for the viewer's own printers.
import { sql, type SQL } from "drizzle-orm";
import type { Printer } from "../../../db/schema";
import { publicCoordinate, publicLocation } from "~/domain/geo";
import { pricePerGramFromRatePerKgCents } from "~/domain/pricing";
import { centsToDollarString } from "~/domain/money";
import type { OwnPrinter, PrinterJson } from "~/domain/printer-listing";
import { OWNER_COMPLETED } from "~/domain/job-status";
import { getDb, type Database } from "~/utils/db.server";
import { readRows } from "~/utils/read-rows.server";
import { printerImageUrl } from "./images.server";

/** A printer row as the hydrate query's json_object gives it: SQLite's 0/1 and epoch milliseconds, with owner and inventory. */
type HydratedRow = Omit<Printer, "isAvailable" | "createdAt" | "updatedAt" | "fitSmall" | "fitMid" | "fitLarge"> & {
  isAvailable: 0 | 1;
  createdAt: number;
  firstName: string | null;
  lastName: string | null;
  /** [reviews, rating × reviews, mean rating] over the owner's rated printers */
  ownerStats: [number | null, number | null, number | null];
  /** [material, colour, grams] rows */
  inventory: [string, string, number][];
};

/** Jobs done: the printer's finished orders (picked up or shipped), counted where they are kept. */
const FINISHED = OWNER_COMPLETED.map((status) => `'${status}'`).join(", ");

type HydrateOptions = { db?: Database; distances?: Map<number, number | null>; viewerId?: number | null };

/**
 * The inventory of the printer `p` as SQL: a JSON array of [material, colour, grams] rows by material and colour,
 * which inventoryOf reads.
 */
const INVENTORY_OF_P = `(SELECT json_group_array(json_array(f.material, f.color, f.grams))
  FROM (SELECT material, color, grams FROM filament_inventory WHERE printer_id = p.id ORDER BY material, color) AS f)`;

/**
 * Each printer that `where` picks as one record SQLite builds as JSON, with its owner and inventory: the page's
 * printers cost one round trip.
 */
async function printerRecords(db: Database, where: SQL): Promise<HydratedRow[]> {
  const rows = await db.all<{ data: string }>(sql`
    SELECT json_object(
      'id', p.id, 'ownerId', p.owner_id, 'name', p.name, 'model', p.model, 'description', p.description,
      'buildVolumeX', p.build_volume_x, 'buildVolumeY', p.build_volume_y, 'buildVolumeZ', p.build_volume_z,
      'materials', json(p.materials), 'ratePerKgCents', p.rate_per_kg_cents,
      'location', p.location, 'city', p.city, 'state', p.state, 'zip', p.zip,
      'latitude', p.latitude, 'longitude', p.longitude, 'isAvailable', p.is_available,
      'rating', p.rating, 'totalReviews', p.total_reviews,
      'totalJobs', (SELECT count(*) FROM print_jobs AS j WHERE j.printer_id = p.id AND j.status IN (${sql.raw(FINISHED)})),
      'hourlyRateCents', p.hourly_rate_cents, 'imageKey', p.image_key, 'createdAt', p.created_at,
      'firstName', u.first_name, 'lastName', u.last_name,
      'ownerStats', json((SELECT json_array(sum(o.total_reviews), sum(o.rating * o.total_reviews), avg(o.rating))
                          FROM printers AS o WHERE o.owner_id = p.owner_id AND o.rating IS NOT NULL)),
      'inventory', json(${sql.raw(INVENTORY_OF_P)})
    ) AS data
    FROM printers AS p JOIN users AS u ON u.id = p.owner_id
    ${where}`);
  return rows.map((row) => JSON.parse(row.data) as HydratedRow);
}

/** Full printer records for these ids, in the given order, with owner, inventory and distance; exact places only for the viewer's own. */
export async function hydratePrinters(ids: number[], options: HydrateOptions = {}): Promise<PrinterJson[]> {
  if (ids.length === 0) return [];
  const db = options.db ?? (await getDb());
  const records = await printerRecords(
    db,
    sql`WHERE p.id IN (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
  return printersJson(records, ids, options);
}

/** An inventory as the JSON rows of [material, colour, grams] give it: a colour with no grams left is out of stock. */
function inventoryOf(rows: [string, string, number][]): PrinterJson["filamentInventory"] {
  return rows.map(([material, color, grams]) => ({ material, color, grams, inStock: grams > 0 }));
}

/** The records as the listing's shape, in the order of `ids`. */
function printersJson(records: HydratedRow[], ids: number[], options: HydrateOptions): PrinterJson[] {
  const byId = new Map(records.map((record) => [record.id, record]));
  const result: PrinterJson[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (!row) continue;
    const json = serializePrinter(
      {
        ...row,
        isAvailable: row.isAvailable === 1,
        createdAt: new Date(row.createdAt),
        updatedAt: new Date(row.createdAt),
        fitSmall: 0,
        fitMid: 0,
        fitLarge: 0,
      },
      {
        owner: ownerSummary(row),
        inventory: inventoryOf(row.inventory),
        exact: typeof options.viewerId === "number" && row.ownerId === options.viewerId,
      },
    );
    const miles = options.distances?.get(id);
    if (typeof miles === "number" && Number.isFinite(miles)) json.distance = Math.round(miles * 100) / 100;
    result.push(json);
  }
  return result;
}

function ownerSummary(row: HydratedRow): PrinterJson["owner"] {
  const [reviews, weighted, plain] = row.ownerStats;
  const totalReviews = reviews ?? 0;
  // Review-weighted across the owner's printers; a plain mean when no printer counts reviews.
  const rating = totalReviews > 0 && weighted !== null ? weighted / totalReviews : plain;
  return {
    id: row.ownerId,
    firstName: row.firstName,
    lastName: row.lastName,
    rating: rating === null ? null : Math.round(rating * 10) / 10,
    totalReviews,
  };
}

/** The listing's shape; `exact` (the owner looking at their own printer) keeps the typed location and full coordinates. */
export function serializePrinter(
  printer: Printer,
  extra: { owner: PrinterJson["owner"]; inventory: PrinterJson["filamentInventory"]; exact?: boolean },
): PrinterJson {
  const exact = extra.exact === true;
  const coordinate = (value: number | null) =>
    value === null ? null : exact ? String(value) : publicCoordinate(value).toFixed(2);
  return {
    id: printer.id,
    ownerId: printer.ownerId,
    name: printer.name,
    model: printer.model,
    description: printer.description,
    buildVolumeX: printer.buildVolumeX,
    buildVolumeY: printer.buildVolumeY,
    buildVolumeZ: printer.buildVolumeZ,
    materials: printer.materials,
    pricePerGram: pricePerGramFromRatePerKgCents(printer.ratePerKgCents),
    ratePerKgCents: printer.ratePerKgCents,
    location: exact ? printer.location : publicLocation(printer),
    city: printer.city,
    state: printer.state,
    zip: printer.zip,
    latitude: coordinate(printer.latitude),
    longitude: coordinate(printer.longitude),
    isAvailable: printer.isAvailable,
    rating: printer.rating,
    totalReviews: printer.totalReviews,
    totalJobs: printer.totalJobs,
    hourlyRate: printer.hourlyRateCents === null ? null : centsToDollarString(printer.hourlyRateCents),
    imageUrl: printerImageUrl(printer.imageKey, printer.model),
    owner: extra.owner,
    filamentInventory: extra.inventory,
    createdAt: printer.createdAt.toISOString(),
  };
}

/** One printer; public unless `viewerId` is its owner. */
export async function getPrinterJson(
  id: number,
  options: { db?: Database; viewerId?: number | null } = {},
): Promise<PrinterJson | null> {
  const [printer] = await hydratePrinters([id], options);
  return printer ?? null;
}

/** An owner's printers, newest first; public unless `viewerId` is that owner. */
export async function listOwnerPrinters(
  ownerId: number,
  options: { db?: Database; viewerId?: number | null } = {},
): Promise<PrinterJson[]> {
  const database = options.db ?? (await getDb());
  const records = await printerRecords(database, sql`WHERE p.owner_id = ${ownerId} ORDER BY p.created_at DESC, p.id DESC`);
  return printersJson(
    records,
    records.map((record) => record.id),
    { viewerId: options.viewerId },
  );
}

/**
 * An owner's printers as their dashboard shows them, newest first: only the columns it draws, from one constant
 * statement. The full record (listOwnerPrinters) counts every finished order of each printer and the owner's
 * ratings, which the dashboard does not show: that read grew with the owner's history (decision 036).
 */
export async function listOwnPrinters(ownerId: number): Promise<OwnPrinter[]> {
  const rows = await readRows({
    sql: `SELECT p.id, p.name, p.model, p.location, p.is_available, p.rate_per_kg_cents,
                 p.build_volume_x, p.build_volume_y, p.build_volume_z, p.materials, p.image_key,
                 ${INVENTORY_OF_P} AS inventory
          FROM printers AS p WHERE p.owner_id = ? ORDER BY p.created_at DESC, p.id DESC`,
    args: [ownerId],
  });
  return rows.map((row) => {
    const model = String(row.model);
    return {
      id: Number(row.id),
      name: String(row.name),
      model,
      location: String(row.location),
      isAvailable: Number(row.is_available) === 1,
      ratePerKgCents: Number(row.rate_per_kg_cents),
      buildVolumeX: Number(row.build_volume_x),
      buildVolumeY: Number(row.build_volume_y),
      buildVolumeZ: Number(row.build_volume_z),
      materials: JSON.parse(String(row.materials)) as string[],
      imageUrl: printerImageUrl(row.image_key === null ? null : String(row.image_key), model),
      filamentInventory: inventoryOf(JSON.parse(String(row.inventory)) as [string, string, number][]),
    };
  });
}

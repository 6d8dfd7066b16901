// Writes to printers and their filament inventory. Every function takes the acting user; only the
// owner changes a printer, and each kind of write is limited per user (limitWrite).
import { and, eq, inArray, sql } from "drizzle-orm";
import { filamentInventory, printers, printJobs, users, type Printer, type User } from "../../../db/schema";
import { AppError } from "~/domain/app-error";
import { PRINTER_IN_USE } from "~/domain/job-status";
import {
  checkStockMaterials,
  placementAfterEdit,
  LOCATION_NOT_FOUND,
  PRINTER_BUSY_WITH_ORDERS,
  storedModelName,
  type AddPrinterValues,
} from "~/domain/printer-form";
import { minVolumeFilter } from "~/domain/printer-fit";
import { ratePerKgCentsFromPricePerGram } from "~/domain/pricing";
import { getDb } from "~/utils/db.server";
import { resolveLocation } from "~/services/gazetteer.server";
import { limitWrite } from "~/services/write-limits.server";
import { readPrinterPhoto, removePrinterPhoto, storePrinterPhoto } from "./images.server";

/** The printer if this user owns it; null when it does not exist; AppError("forbidden") when someone else owns it. */
export async function findOwnedPrinter(user: Pick<User, "id">, printerId: number): Promise<Printer | null> {
  const db = await getDb();
  const [printer] = await db.select().from(printers).where(eq(printers.id, printerId)).limit(1);
  if (!printer) return null;
  if (printer.ownerId !== user.id) throw new AppError("forbidden", "Only the printer's owner can change it");
  return printer;
}

export interface Placement {
  location: string;
  latitude: number;
  longitude: number;
  city: string | null;
  state: string | null;
  zip: string | null;
}

/** What a place that cannot be found is called, and on which form field. */
export interface PlacementRefusal {
  field: string;
  message: string;
}

const LOCATION_REFUSAL: PlacementRefusal = { field: "location", message: LOCATION_NOT_FOUND };

/**
 * Coordinates for a printer: the owner's own if given, else the offline gazetteer's; AppError("invalid")
 * on the refusal's field when neither works.
 */
export function locatePrinter(
  location: string,
  coordinates?: { latitude?: number; longitude?: number } | null,
  refusal: PlacementRefusal = LOCATION_REFUSAL,
): Placement {
  const place = resolveLocation(location);
  const lat = coordinates?.latitude;
  const lon = coordinates?.longitude;
  if (typeof lat === "number" && typeof lon === "number") {
    return {
      location,
      latitude: lat,
      longitude: lon,
      city: place?.city ?? null,
      state: place?.state ?? null,
      zip: place?.zip ?? null,
    };
  }
  if (!place) throw new AppError("invalid", refusal.message, { field: refusal.field });
  // A ZIP-less "Loveland, CO" stores the city centre's ZIP as the shipping origin.
  return { location, latitude: place.latitude, longitude: place.longitude, city: place.city, state: place.state, zip: place.zip };
}

/**
 * The printer's place after an edit, by the rule of placementAfterEdit: undefined when neither its
 * location nor its coordinates were sent; AppError on "location" when the new location cannot be placed.
 */
export function placeAfterEdit(
  current: Pick<Printer, "location" | "latitude" | "longitude">,
  changes: { location?: string; latitude?: number; longitude?: number },
): Placement | undefined {
  const request = placementAfterEdit(current, changes);
  if (!request) return undefined;
  return locatePrinter(request.location, request.coordinates);
}

function sortedSides(x: number, y: number, z: number) {
  const [fitSmall, fitMid, fitLarge] = minVolumeFilter(x, y, z);
  return { fitSmall, fitMid, fitLarge };
}

function ratePerKgCents(pricePerGram: string): number {
  const rate = ratePerKgCentsFromPricePerGram(pricePerGram);
  if (rate === null) throw new RangeError("pricePerGram was not validated");
  return rate;
}

export interface NewPrinter {
  name: string;
  model: string;
  description?: string | null;
  buildVolumeX: number;
  buildVolumeY: number;
  buildVolumeZ: number;
  materials: string[];
  pricePerGram: string;
  placement: Placement;
  isAvailable: boolean;
  /** the uploaded photo, checked before anything is written (AppError on "image") */
  photo?: File | null;
}

/** The add-printer form's validated values (page or API) as a new printer, placed (AppError on the refusal's field when it can't be). */
export function newPrinterFromForm(
  values: AddPrinterValues,
  extra: Pick<NewPrinter, "isAvailable" | "photo">,
  refusal?: PlacementRefusal,
): NewPrinter {
  const placement = locatePrinter(values.location, values, refusal);
  return {
    name: values.name,
    model: storedModelName(values.model, values.customModel),
    description: values.description,
    buildVolumeX: values.buildVolumeX,
    buildVolumeY: values.buildVolumeY,
    buildVolumeZ: values.buildVolumeZ,
    materials: values.materials,
    pricePerGram: values.pricePerGram,
    placement,
    ...extra,
  };
}

/** Lists a printer (limited per owner); a customer who lists one becomes 'both'. */
export async function createPrinter(owner: User, input: NewPrinter): Promise<Printer> {
  const photo = input.photo ? await readPrinterPhoto(input.photo) : null;
  await limitWrite(owner.id, "printer");
  const db = await getDb();
  const rate = ratePerKgCents(input.pricePerGram);
  const imageKey = photo ? await storePrinterPhoto(photo) : null;
  try {
    return await db.transaction(async (tx) => {
      const [printer] = await tx
        .insert(printers)
        .values({
          ownerId: owner.id,
          name: input.name,
          model: input.model,
          description: input.description || null,
          buildVolumeX: input.buildVolumeX,
          buildVolumeY: input.buildVolumeY,
          buildVolumeZ: input.buildVolumeZ,
          ...sortedSides(input.buildVolumeX, input.buildVolumeY, input.buildVolumeZ),
          materials: input.materials,
          ratePerKgCents: rate,
          ...input.placement,
          isAvailable: input.isAvailable,
          imageKey,
        })
        .returning();
      if (owner.userType === "customer") {
        await tx.update(users).set({ userType: "both", updatedAt: new Date() }).where(eq(users.id, owner.id));
      }
      return printer!;
    });
  } catch (error) {
    await removePrinterPhoto(imageKey);
    throw error;
  }
}

export interface StockRow {
  material: string;
  color: string;
  grams: number;
}

export interface PrinterChanges {
  name?: string;
  description?: string | null;
  pricePerGram?: string;
  materials?: string[];
  isAvailable?: boolean;
  placement?: Placement;
  /** a new photo (checked first: AppError on "image"), or null to remove the current one */
  photo?: File | null;
  /** the whole inventory, replacing what is stored; every row in the printer's materials (after the change) */
  filamentInventory?: StockRow[];
}

/**
 * Applies the owner's changes in one guarded UPDATE (and replaces the inventory when given); the
 * updated printer, or null if it is gone or not theirs. Stock outside the materials is AppError("invalid").
 */
export async function updatePrinter(owner: User, printerId: number, changes: PrinterChanges): Promise<Printer | null> {
  const db = await getDb();
  const [current] = await db
    .select({ imageKey: printers.imageKey, materials: printers.materials })
    .from(printers)
    .where(and(eq(printers.id, printerId), eq(printers.ownerId, owner.id)));
  if (!current) return null;
  const photo = changes.photo ? await readPrinterPhoto(changes.photo) : null;
  if (changes.filamentInventory) checkStockMaterials(changes.materials ?? current.materials, changes.filamentInventory);
  await limitWrite(owner.id, "printerUpdate");
  if (changes.filamentInventory) await limitWrite(owner.id, "inventory");
  const set: Partial<typeof printers.$inferInsert> = { updatedAt: new Date() };
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.description !== undefined) set.description = changes.description || null;
  if (changes.materials !== undefined) set.materials = changes.materials;
  if (changes.isAvailable !== undefined) set.isAvailable = changes.isAvailable;
  if (changes.placement) Object.assign(set, changes.placement);
  if (changes.pricePerGram !== undefined) set.ratePerKgCents = ratePerKgCents(changes.pricePerGram);
  let newKey: string | null = null;
  if (photo) newKey = set.imageKey = await storePrinterPhoto(photo);
  else if (changes.photo === null) set.imageKey = null;
  const [updated] = await db
    .update(printers)
    .set(set)
    .where(and(eq(printers.id, printerId), eq(printers.ownerId, owner.id)))
    .returning();
  if (!updated) {
    await removePrinterPhoto(newKey);
    return null;
  }
  if (changes.photo !== undefined && current.imageKey) await removePrinterPhoto(current.imageKey);
  if (changes.filamentInventory) await replaceStock(printerId, changes.filamentInventory);
  return updated;
}

/** The online/offline switch; the printer, or null if it is gone or not theirs. */
export async function setPrinterAvailability(owner: User, printerId: number, isAvailable: boolean): Promise<Printer | null> {
  await limitWrite(owner.id, "printerUpdate");
  const db = await getDb();
  const [updated] = await db
    .update(printers)
    .set({ isAvailable, updatedAt: new Date() })
    .where(and(eq(printers.id, printerId), eq(printers.ownerId, owner.id)))
    .returning();
  return updated ?? null;
}

/**
 * Deletes the printer unless an order still depends on it (AppError("conflict")); the check and the
 * delete are one statement. The deleted printer, or null if it is gone or not theirs.
 */
export async function deletePrinter(owner: User, printerId: number): Promise<Printer | null> {
  const db = await getDb();
  const [current] = await db
    .select()
    .from(printers)
    .where(and(eq(printers.id, printerId), eq(printers.ownerId, owner.id)));
  if (!current) return null;
  await limitWrite(owner.id, "printerUpdate");
  const result = await db
    .delete(printers)
    .where(
      and(
        eq(printers.id, printerId),
        eq(printers.ownerId, owner.id),
        sql`NOT EXISTS (SELECT 1 FROM ${printJobs} WHERE ${printJobs.printerId} = ${printerId} AND ${inArray(printJobs.status, [...PRINTER_IN_USE])})`,
      ),
    );
  if (result.rowsAffected !== 1) throw new AppError("conflict", PRINTER_BUSY_WITH_ORDERS);
  await removePrinterPhoto(current.imageKey);
  return current;
}

/**
 * Sets the grams of one material and colour (adding the row if new). The caller has checked
 * ownership; a material the printer does not offer is AppError("invalid").
 */
export async function setStock(owner: User, printer: Pick<Printer, "id" | "materials">, row: StockRow): Promise<void> {
  checkStockMaterials(printer.materials, [row]);
  await limitWrite(owner.id, "inventory");
  const db = await getDb();
  await db
    .insert(filamentInventory)
    .values({ printerId: printer.id, ...row })
    .onConflictDoUpdate({
      target: [filamentInventory.printerId, filamentInventory.material, filamentInventory.color],
      set: { grams: row.grams, updatedAt: new Date() },
    });
}

/** Removes one stock row; false when there was none. The caller has checked ownership. */
export async function removeStock(owner: User, printerId: number, row: { material: string; color: string }): Promise<boolean> {
  await limitWrite(owner.id, "inventory");
  const db = await getDb();
  const result = await db
    .delete(filamentInventory)
    .where(
      and(
        eq(filamentInventory.printerId, printerId),
        eq(filamentInventory.material, row.material),
        eq(filamentInventory.color, row.color),
      ),
    );
  return result.rowsAffected > 0;
}

async function replaceStock(printerId: number, rows: StockRow[]): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.delete(filamentInventory).where(eq(filamentInventory.printerId, printerId));
    if (rows.length) await tx.insert(filamentInventory).values(rows.map((r) => ({ printerId, ...r })));
  });
}

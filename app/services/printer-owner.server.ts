// Writes to printers and their filament inventory. Every function takes the acting user; only the owner changes a printer.
import type { SubmissionResult } from "@conform-to/react";
import {
  FormDataParseError,
  MaxFilesExceededError,
  MaxFileSizeExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
} from "@remix-run/form-data-parser";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import { filamentInventory, printers, printJobs, users, type JobStatus, type Printer, type User } from "../../db/schema";
import { storedModelName, type AddPrinterValues } from "~/components/printer-form";
import { minVolumeFilter } from "~/domain/printer-fit";
import { ratePerKgCentsFromPricePerGram } from "~/domain/pricing";
import { getDb } from "~/utils/db.server";
import { requireUser } from "~/utils/session.server";
import { resolveLocation } from "./gazetteer.server";
import { removePrinterPhoto, storePrinterPhoto, type ImageExtension, type PhotoBytes } from "./printer-images.server";

export const LOCATION_NOT_FOUND =
  "We couldn't place this location. Enter a US city and state (Loveland, CO), a ZIP code or an address with its ZIP, or give latitude and longitude.";
export const PRINTER_BUSY_WITH_ORDERS = "This printer has orders in progress. Finish or cancel them before deleting it.";

/** Jobs that still need the printer: a printer is not deleted from under them. */
const IN_FLIGHT: readonly JobStatus[] = [
  "submitted",
  "confirmed",
  "accepted",
  "printing",
  "completed",
  "ready_for_pickup",
  "ready_for_shipping",
];

export type OwnedPrinterResult = { ok: true; printer: Printer } | { ok: false; status: 404 | 403 };

/** The printer if this user owns it; 404 when it does not exist, 403 when someone else owns it. */
export async function findOwnedPrinter(user: User, printerId: number): Promise<OwnedPrinterResult> {
  const db = await getDb();
  const [printer] = await db.select().from(printers).where(eq(printers.id, printerId)).limit(1);
  if (!printer) return { ok: false, status: 404 };
  if (printer.ownerId !== user.id) return { ok: false, status: 403 };
  return { ok: true, printer };
}

/** Pages: the signed-in owner and their printer; anyone else gets a 404, since saying "exists" helps no one. */
export async function requirePrinterOwner(request: Request, printerId: number): Promise<{ user: User; printer: Printer }> {
  const user = await requireUser(request);
  const found = await findOwnedPrinter(user, printerId);
  if (!found.ok) throw new Response("Printer not found", { status: 404 });
  return { user, printer: found.printer };
}

export const PHOTO_TOO_LARGE = "The photo must be 5 MB or smaller";
export const ONE_PHOTO_ONLY = "Add one photo at most";
export const FORM_UNREADABLE = "The form could not be read. Please try again.";

/**
 * The answer for a printer form that parseFormData refused: 413 for a photo or form over the size
 * limits, 400 for too many files or a broken or oversized multipart body. The result carries no
 * initialValue, so with JavaScript the form keeps what was typed (as on /upload-model). Any other
 * error is not a parse failure: null, and the caller rethrows it.
 */
export function printerFormParseFailure(error: unknown): { status: 400 | 413; result: SubmissionResult<string[]> } | null {
  const reply = (status: 400 | 413, field: string, message: string) => ({
    status,
    result: { status: "error", error: { [field]: [message] } } satisfies SubmissionResult<string[]>,
  });
  if (error instanceof MaxFileSizeExceededError || error instanceof MaxTotalSizeExceededError)
    return reply(413, "image", PHOTO_TOO_LARGE);
  if (error instanceof MaxFilesExceededError) return reply(400, "image", ONE_PHOTO_ONLY);
  // the rest: MaxPartsExceededError, MaxHeaderSizeExceededError, a malformed body
  if (error instanceof MultipartParseError || error instanceof FormDataParseError) return reply(400, "", FORM_UNREADABLE);
  return null;
}

export interface Placement {
  location: string;
  latitude: number;
  longitude: number;
  city: string | null;
  state: string | null;
  zip: string | null;
}

/** Coordinates for a printer: the owner's own if given, else the offline gazetteer's; null when neither works. */
export function placePrinter(location: string, coordinates?: { latitude?: number; longitude?: number } | null): Placement | null {
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
  if (!place) return null;
  // A ZIP-less "Loveland, CO" stores the city centre's ZIP as the shipping origin.
  return { location, latitude: place.latitude, longitude: place.longitude, city: place.city, state: place.state, zip: place.zip };
}

function sortedSides(x: number, y: number, z: number) {
  const [fitSmall, fitMid, fitLarge] = minVolumeFilter(x, y, z);
  return { fitSmall, fitMid, fitLarge };
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
  photo?: { ext: ImageExtension; bytes: PhotoBytes } | null;
}

/** The add-printer form's validated values (page or API) as a new printer. */
export function newPrinterFromForm(
  values: AddPrinterValues,
  placement: Placement,
  extra: Pick<NewPrinter, "isAvailable" | "photo">,
): NewPrinter {
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

/** Lists a printer; a customer who lists one becomes 'both' (document 001 §6). */
export async function createPrinter(owner: User, input: NewPrinter): Promise<Printer> {
  const db = await getDb();
  const rate = ratePerKgCentsFromPricePerGram(input.pricePerGram);
  if (rate === null) throw new RangeError("pricePerGram was not validated");
  const imageKey = input.photo ? await storePrinterPhoto(input.photo) : null;
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

export interface PrinterChanges {
  name?: string;
  description?: string | null;
  pricePerGram?: string;
  materials?: string[];
  isAvailable?: boolean;
  placement?: Placement;
  /** a new photo, or null to remove the current one */
  photo?: { ext: ImageExtension; bytes: PhotoBytes } | null;
}

/** Applies the owner's changes in one guarded UPDATE; false if the printer is gone or not theirs. */
export async function updatePrinter(owner: User, printerId: number, changes: PrinterChanges): Promise<boolean> {
  const db = await getDb();
  const [current] = await db
    .select({ imageKey: printers.imageKey })
    .from(printers)
    .where(and(eq(printers.id, printerId), eq(printers.ownerId, owner.id)));
  if (!current) return false;
  const set: Partial<typeof printers.$inferInsert> = { updatedAt: new Date() };
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.description !== undefined) set.description = changes.description || null;
  if (changes.materials !== undefined) set.materials = changes.materials;
  if (changes.isAvailable !== undefined) set.isAvailable = changes.isAvailable;
  if (changes.placement) Object.assign(set, changes.placement);
  if (changes.pricePerGram !== undefined) {
    const rate = ratePerKgCentsFromPricePerGram(changes.pricePerGram);
    if (rate === null) throw new RangeError("pricePerGram was not validated");
    set.ratePerKgCents = rate;
  }
  let newKey: string | null = null;
  if (changes.photo) newKey = set.imageKey = await storePrinterPhoto(changes.photo);
  else if (changes.photo === null) set.imageKey = null;
  const result = await db
    .update(printers)
    .set(set)
    .where(and(eq(printers.id, printerId), eq(printers.ownerId, owner.id)));
  if (result.rowsAffected !== 1) {
    await removePrinterPhoto(newKey);
    return false;
  }
  if (changes.photo !== undefined && current.imageKey) await removePrinterPhoto(current.imageKey);
  return true;
}

/** The online/offline switch. */
export async function setPrinterAvailability(owner: User, printerId: number, isAvailable: boolean): Promise<boolean> {
  const db = await getDb();
  const result = await db
    .update(printers)
    .set({ isAvailable, updatedAt: new Date() })
    .where(and(eq(printers.id, printerId), eq(printers.ownerId, owner.id)));
  return result.rowsAffected === 1;
}

export type DeleteResult = "deleted" | "not-found" | "has-orders";

/** Deletes the printer unless an order still depends on it; the check and the delete are one statement. */
export async function deletePrinter(owner: User, printerId: number): Promise<DeleteResult> {
  const db = await getDb();
  const [current] = await db
    .select({ imageKey: printers.imageKey })
    .from(printers)
    .where(and(eq(printers.id, printerId), eq(printers.ownerId, owner.id)));
  if (!current) return "not-found";
  const result = await db
    .delete(printers)
    .where(
      and(
        eq(printers.id, printerId),
        eq(printers.ownerId, owner.id),
        sql`NOT EXISTS (SELECT 1 FROM ${printJobs} WHERE ${printJobs.printerId} = ${printerId} AND ${inArray(printJobs.status, [...IN_FLIGHT])})`,
      ),
    );
  if (result.rowsAffected !== 1) return "has-orders";
  await removePrinterPhoto(current.imageKey);
  return "deleted";
}

/** Sets the grams of one material and colour (adding the row if new). The caller has checked ownership. */
export async function setStock(printerId: number, row: { material: string; color: string; grams: number }): Promise<void> {
  const db = await getDb();
  await db
    .insert(filamentInventory)
    .values({ printerId, ...row })
    .onConflictDoUpdate({
      target: [filamentInventory.printerId, filamentInventory.material, filamentInventory.color],
      set: { grams: row.grams, updatedAt: new Date() },
    });
}

export async function removeStock(printerId: number, row: { material: string; color: string }): Promise<boolean> {
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

/** Replaces the whole inventory (the JSON API's PUT). */
export async function replaceStock(printerId: number, rows: { material: string; color: string; grams: number }[]): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.delete(filamentInventory).where(eq(filamentInventory.printerId, printerId));
    if (rows.length) await tx.insert(filamentInventory).values(rows.map((r) => ({ printerId, ...r })));
  });
}

/** The API's 400 for a form that failed validation: the first message, and every field's messages. */
export function apiValidationError(error: z.ZodError): Response {
  const { fieldErrors, formErrors } = error.flatten();
  const first = formErrors[0] ?? Object.values(fieldErrors).flat()[0] ?? "Check the printer details";
  return Response.json({ message: first, errors: fieldErrors }, { status: 400 });
}

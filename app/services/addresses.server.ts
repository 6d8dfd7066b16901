// Delivery addresses: the ZIP-in-state check on the offline gazetteer, and each customer's address
// book (several addresses, at most one the default; docs/decisions/037-delivery-addresses-and-mail.md).
import { and, asc, desc, eq } from "drizzle-orm";
import { addresses, type Address } from "../../db/schema";
import {
  addressFromForm,
  ADDRESS_FIELDS,
  ADDRESS_MESSAGES,
  parseAddressShape,
  zipNotInStateMessage,
  type AddressErrors,
  type DeliveryAddress,
} from "~/domain/address";
import { AppError } from "~/domain/app-error";
import { lookupZip } from "~/services/gazetteer.server";
import { limitWrite } from "~/services/write-limits.server";
import { getDb } from "~/utils/db.server";

/** A customer keeps at most this many addresses. */
export const MAX_ADDRESSES = 20;

/** The whole check: every field's rule, then the gazetteer's word that the ZIP lies in the state. */
export function checkDeliveryAddress(value: unknown): { address: DeliveryAddress } | { errors: AddressErrors } {
  const shape = parseAddressShape(value);
  if ("errors" in shape) return shape;
  const place = lookupZip(shape.address.zip);
  if (!place || place.state !== shape.address.state) {
    return { errors: { zip: [zipNotInStateMessage(shape.address.zip, shape.address.state)] } };
  }
  return shape;
}

/** checkDeliveryAddress for flows: the first refusal as an AppError on its field (`deliveryAddress.zip`, …). */
export function requireDeliveryAddress(value: unknown): DeliveryAddress {
  if (value === undefined || value === null) throw new AppError("invalid", ADDRESS_MESSAGES.needed, { field: "deliveryAddress" });
  const checked = checkDeliveryAddress(value);
  if ("address" in checked) return checked.address;
  const field = ADDRESS_FIELDS.find((f) => checked.errors[f]?.length)!;
  throw new AppError("invalid", checked.errors[field]![0]!, { field: `deliveryAddress.${field}` });
}

/** The stored copy: only the address's own fields, blanks left out. */
export function addressOf(row: Pick<Address, AddressFieldKeys>): DeliveryAddress {
  return {
    name: row.name,
    line1: row.line1,
    line2: row.line2 ?? undefined,
    city: row.city,
    state: row.state,
    zip: row.zip,
    phone: row.phone ?? undefined,
  };
}
type AddressFieldKeys = "name" | "line1" | "line2" | "city" | "state" | "zip" | "phone";

/** The customer's addresses, the default first. */
export async function listAddresses(userId: number): Promise<Address[]> {
  const db = await getDb();
  return db.select().from(addresses).where(eq(addresses.userId, userId)).orderBy(desc(addresses.isDefault), asc(addresses.id));
}

export async function getOwnAddress(userId: number, addressId: number): Promise<Address | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(addresses)
    .where(and(eq(addresses.id, addressId), eq(addresses.userId, userId)))
    .limit(1);
  return row ?? null;
}

const columns = (address: DeliveryAddress) => ({
  name: address.name,
  line1: address.line1,
  line2: address.line2 ?? null,
  city: address.city,
  state: address.state,
  zip: address.zip,
  phone: address.phone ?? null,
});

/** Adds an address (addressId null) or changes one of the customer's; the first one becomes the default. */
export async function saveAddress(
  userId: number,
  addressId: number | null,
  address: DeliveryAddress,
  options: { makeDefault?: boolean } = {},
): Promise<number> {
  await limitWrite(userId, "profile");
  const db = await getDb();
  const existing = await listAddresses(userId);
  let id = addressId;
  if (id === null) {
    if (existing.length >= MAX_ADDRESSES) {
      throw new AppError("conflict", `You can keep at most ${MAX_ADDRESSES} addresses. Delete one first.`);
    }
    const [row] = await db
      .insert(addresses)
      .values({ userId, ...columns(address), isDefault: existing.length === 0 })
      .returning({ id: addresses.id });
    id = row!.id;
  } else {
    const result = await db
      .update(addresses)
      .set({ ...columns(address), updatedAt: new Date() })
      .where(and(eq(addresses.id, id), eq(addresses.userId, userId)));
    if (result.rowsAffected !== 1) throw new AppError("not_found", "Address not found.");
  }
  if (options.makeDefault) await makeDefaultAddress(userId, id);
  return id;
}

/** Makes one of the customer's addresses the default (the one /submit-print fills in). */
export async function makeDefaultAddress(userId: number, addressId: number): Promise<void> {
  const db = await getDb();
  const own = await getOwnAddress(userId, addressId);
  if (!own) throw new AppError("not_found", "Address not found.");
  // two statements in one batch: the unique index on the default never sees two at once
  await db.batch([
    db
      .update(addresses)
      .set({ isDefault: false })
      .where(and(eq(addresses.userId, userId), eq(addresses.isDefault, true))),
    db
      .update(addresses)
      .set({ isDefault: true })
      .where(and(eq(addresses.id, addressId), eq(addresses.userId, userId))),
  ]);
}

/** Deletes one of the customer's addresses; when it was the default, the oldest left takes its place. Orders keep their copies. */
export async function deleteAddress(userId: number, addressId: number): Promise<void> {
  await limitWrite(userId, "profile");
  const db = await getDb();
  const own = await getOwnAddress(userId, addressId);
  if (!own) throw new AppError("not_found", "Address not found.");
  await db.delete(addresses).where(and(eq(addresses.id, addressId), eq(addresses.userId, userId)));
  if (own.isDefault) {
    const [next] = await listAddresses(userId);
    if (next) await makeDefaultAddress(userId, next.id);
  }
}

/**
 * The address /submit-print shows: a saved address just chosen (or, on a first visit, the default)
 * fills it in; after that, what was typed stays. `get` reads the page's query.
 */
export async function orderFormAddress(userId: number, get: (name: string) => string | null, fallbackZip: string | null) {
  const saved = await listAddresses(userId);
  const picked = Number(get("savedAddressId")) || null;
  const fillFrom =
    picked && String(picked) !== get("filledFrom")
      ? saved.find((a) => a.id === picked)
      : get("deliveryAddress.name") !== null
        ? undefined
        : saved[0];
  const typed = addressFromForm(get);
  const values = fillFrom ?? typed;
  return {
    address: {
      key: fillFrom ? `saved-${fillFrom.id}` : "typed",
      filledFrom: fillFrom?.id ?? (get("filledFrom") || null),
      name: values.name ?? "",
      line1: values.line1 ?? "",
      line2: values.line2 ?? "",
      city: values.city ?? "",
      state: values.state ?? "",
      phone: values.phone ?? "",
      zip: (fillFrom ? fillFrom.zip : typed.zip) ?? fallbackZip ?? "",
    },
    savedAddresses: saved.map((a) => ({ id: a.id, label: `${a.name}, ${a.line1}, ${a.city}, ${a.state} ${a.zip}` })),
  };
}

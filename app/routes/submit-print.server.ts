// What /submit-print's action reads and answers with: the order form's schema, the way back to the
// form with its choices, and a refused address's errors on the form's address fields.
import { z } from "zod";
import { ADDRESS_FIELDS, orderFormFieldName, type AddressErrors } from "~/domain/address";
import { DELIVERY_METHODS } from "~/domain/pricing";
import { NO_COLOR } from "~/services/orders/place-order.server";

export const OrderSchema = z.object({
  printerId: z.coerce.number().int().positive(),
  draftId: z.coerce.number().int().positive(),
  filamentColor: z.string({ required_error: NO_COLOR }).trim().min(1, NO_COLOR),
  deliveryMethod: z.enum(DELIVERY_METHODS).default("pickup"),
  deliveryZip: z.string().max(5).optional(),
  shippingService: z.string().max(64).optional(),
  specialInstructions: z.string().max(1000, "Special instructions can be at most 1000 characters.").optional(),
  // checked by placeOrder, which answers 0 or 51 copies with the one message
  quantity: z.coerce.number().optional(),
});

export const CHECK_ADDRESS = "Check the delivery address.";

/** A refused address's errors keyed by the order form's field names, for conform's reply. */
export function addressFieldErrors(errors: AddressErrors): Record<string, string[]> {
  return Object.fromEntries(
    ADDRESS_FIELDS.flatMap((field) => (errors[field] ? [[orderFormFieldName(field), errors[field]]] : [])),
  );
}

/** Back to this form with what was chosen, so a refusal shown as a toast keeps the customer's choices. */
export function formAgain(form: FormData): string {
  const q = new URLSearchParams();
  for (const name of [
    "printerId",
    "draftId",
    "quantity",
    "deliveryMethod",
    "deliveryZip",
    "shippingService",
    "specialInstructions",
    "filledFrom",
  ]) {
    const value = form.get(name);
    if (typeof value === "string" && value !== "") q.set(name, value.slice(0, 1000));
  }
  return `/submit-print?${q.toString()}`;
}

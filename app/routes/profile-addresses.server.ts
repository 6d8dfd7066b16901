// The address book's posts on /profile (intents address-save, address-delete, address-default): plain
// form posts that work without JavaScript; a refused address answers conform's { result } with 400.
import { parseWithZod } from "@conform-to/zod";
import { data } from "@remix-run/node";
import { z } from "zod";
import { DeliveryAddressSchema } from "~/domain/address";
import { isAppError } from "~/domain/app-error";
import { checkDeliveryAddress, deleteAddress, makeDefaultAddress, saveAddress } from "~/services/addresses.server";
import { toastOf } from "~/utils/app-error.server";
import { parseId } from "~/utils/misc";
import { redirectWithToast } from "~/utils/toast.server";

export const ADDRESS_INTENTS = ["address-save", "address-delete", "address-default"] as const;

const AddressFormSchema = DeliveryAddressSchema.extend({
  addressId: z.coerce.number().int().positive().optional(),
  makeDefault: z.literal("on").optional(),
});

export async function addressBookAction(userId: number, intent: string, form: FormData) {
  const back = "/profile#addresses";
  try {
    if (intent === "address-save") {
      const submission = parseWithZod(form, { schema: AddressFormSchema });
      // the page finds the refused form by the intent and addressId kept in the result's initialValue
      if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
      const { addressId, makeDefault, ...fields } = submission.value;
      const checked = checkDeliveryAddress(fields);
      if ("errors" in checked) {
        return data({ result: submission.reply({ fieldErrors: checked.errors }) }, { status: 400 });
      }
      await saveAddress(userId, addressId ?? null, checked.address, { makeDefault: makeDefault === "on" });
      return redirectWithToast(back, { title: addressId ? "Address Updated" : "Address Added" });
    }
    const addressId = parseId(form.get("addressId"));
    if (!addressId) return redirectWithToast(back, { title: "Address not found", variant: "destructive" });
    if (intent === "address-delete") {
      await deleteAddress(userId, addressId);
      return redirectWithToast(back, { title: "Address Deleted", description: "Orders already placed keep their address." });
    }
    await makeDefaultAddress(userId, addressId);
    return redirectWithToast(back, { title: "Default Address Set" });
  } catch (error) {
    if (!isAppError(error)) throw error;
    return redirectWithToast(back, toastOf(error, "Address Not Saved"));
  }
}

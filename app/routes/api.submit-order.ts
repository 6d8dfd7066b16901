// POST /api/submit-order {printerId, draftId, filamentColor, deliveryMethod, specialInstructions,
// deliveryAddress?: {name, line1, line2?, city, state, zip, phone?}, shippingService?, quantity?}: the
// customer's draft becomes an order; a delivered or shipped one needs the address (400 with each field's
// message). The total is computed here (a client-sent amount is ignored). Answers {orderId, totalCents}.
import type { ActionFunctionArgs } from "@remix-run/node";
import { isDeliveryMethod } from "~/domain/pricing";
import { checkDeliveryAddress } from "~/services/addresses.server";
import { givenAddress, placeOrder } from "~/services/orders/place-order.server";
import { loadJobParty } from "~/services/orders/jobs.server";
import { apiError, methodNotAllowed, readJson, requireApiUser } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";
import { parseId } from "~/utils/misc";

const text = (value: unknown) => (typeof value === "string" ? value : null);

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request);
  const body = await readJson(request, 16 * 1024);
  const printerId = parseId(body.printerId);
  const draftId = parseId(body.draftId);
  if (!printerId || !draftId) return apiError(400, "Missing printer or draft information.");
  const deliveryMethod = body.deliveryMethod ?? "pickup";
  if (!isDeliveryMethod(deliveryMethod)) return apiError(400, "Choose pickup, delivery or shipping.");
  const input = {
    customerId: user.id,
    printerId,
    draftId,
    filamentColor: text(body.filamentColor) ?? "",
    deliveryMethod,
    specialInstructions: text(body.specialInstructions),
    deliveryZip: text(body.deliveryZip),
    shippingService: text(body.shippingService),
    deliveryAddress: body.deliveryAddress ?? undefined,
    quantity: body.quantity === undefined || body.quantity === null ? null : Number(body.quantity),
  };
  if (deliveryMethod !== "pickup") {
    const checked = checkDeliveryAddress(givenAddress(input) ?? {});
    if ("errors" in checked) {
      const errors = Object.fromEntries(
        Object.entries(checked.errors).map(([field, list]) => [`deliveryAddress.${field}`, list]),
      );
      return Response.json({ message: "Check the delivery address.", errors }, { status: 400 });
    }
  }
  return withApiErrors(async () => {
    const orderId = await placeOrder(input);
    const party = await loadJobParty(orderId);
    return Response.json({ orderId, totalCents: party?.job.amountDueCents ?? null }, { status: 201 });
  });
}

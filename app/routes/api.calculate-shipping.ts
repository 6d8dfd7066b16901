// POST /api/calculate-shipping {printerId, zipTo, draftId? | weightGrams?}: shipping options from
// the printer's ZIP (a client zipFrom is ignored). Answers {options[], defaultOption, estimated};
// costs are dollars as the document has them, with cents beside them.
import type { ActionFunctionArgs } from "@remix-run/node";
import { isZip, type ShippingOption } from "~/domain/shipping";
import { getOwnDraft } from "~/services/designs/drafts.server";
import { getOrderablePrinter } from "~/services/orders/place-order.server";
import { shippingQuote } from "~/services/shipping/rates.server";
import { apiError, methodNotAllowed, readJson, requireApiUser } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";
import { parseId } from "~/utils/misc";

function optionJson(option: ShippingOption) {
  return { ...option, estimatedCost: (option.estimatedCost / 100).toFixed(2), estimatedCostCents: option.estimatedCost };
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request);
  const body = await readJson(request, 4 * 1024);
  const printerId = parseId(body.printerId);
  if (!printerId) return apiError(400, "Missing printerId.");
  if (!isZip(body.zipTo)) return apiError(400, "Enter a 5-digit ZIP code.");
  const printer = await getOrderablePrinter(printerId);
  if (!printer) return apiError(404, "Printer not found");
  const draftId = parseId(body.draftId);
  const draft = draftId ? await getOwnDraft(user.id, draftId) : null;
  const given = Number(body.weightGrams);
  const weightGrams = draft?.estimatedWeightGrams ?? (Number.isFinite(given) && given > 0 && given <= 50_000 ? given : 25);
  return withApiErrors(async () => {
    const quote = await shippingQuote({ originZip: printer.zip, destinationZip: body.zipTo as string, weightGrams });
    return Response.json({
      options: quote.options.map(optionJson),
      defaultOption: quote.defaultOption ? optionJson(quote.defaultOption) : null,
      estimated: quote.estimated,
    });
  });
}

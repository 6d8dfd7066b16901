// GET, PUT and DELETE /api/printers/{id}: anyone reads; only the printer's owner changes or deletes it.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { InventorySchema, PRINTER_FIELDS } from "~/components/printer-form";
import {
  deletePrinter,
  findOwnedPrinter,
  apiValidationError,
  LOCATION_NOT_FOUND,
  placePrinter,
  PRINTER_BUSY_WITH_ORDERS,
  replaceStock,
  updatePrinter,
} from "~/services/printer-owner.server";
import { getPrinterJson } from "~/services/printer-search.server";
import { apiError, idParam, readJson, requireApiUser } from "~/utils/api.server";
import { getSessionUser } from "~/utils/session.server";

const UpdateSchema = z
  .object({
    ...PRINTER_FIELDS,
    filamentInventory: z.array(InventorySchema).max(200, "At most 200 inventory rows"),
  })
  .partial()
  .superRefine((value, ctx) => {
    if ((value.latitude === undefined) !== (value.longitude === undefined)) {
      ctx.addIssue({ code: "custom", path: ["latitude"], message: "Give both latitude and longitude, or neither" });
    }
    const seen = new Set<string>();
    for (const row of value.filamentInventory ?? []) {
      const key = `${row.material}|${row.color}`;
      if (seen.has(key))
        ctx.addIssue({ code: "custom", path: ["filamentInventory"], message: `${row.color} ${row.material} is listed twice` });
      seen.add(key);
    }
  });

export async function loader({ params, request }: LoaderFunctionArgs) {
  // the owner sees the exact place; everyone else the public one
  const viewer = await getSessionUser(request);
  const printer = await getPrinterJson(idParam(params.id), { viewerId: viewer?.id ?? null });
  if (!printer) throw apiError(404, "Printer not found");
  return Response.json(printer);
}

export async function action({ request, params }: ActionFunctionArgs) {
  const id = idParam(params.id);
  const method = request.method.toUpperCase();
  if (method !== "PUT" && method !== "PATCH" && method !== "DELETE")
    throw apiError(400, "Use PUT to change a printer or DELETE to remove it");
  const user = await requireApiUser(request);
  const owned = await findOwnedPrinter(user, id);
  if (!owned.ok)
    throw owned.status === 404 ? apiError(404, "Printer not found") : apiError(403, "Only the printer's owner can change it");
  const printer = owned.printer;

  if (method === "DELETE") {
    const result = await deletePrinter(user, id);
    if (result === "not-found") throw apiError(404, "Printer not found");
    if (result === "has-orders") throw apiError(409, PRINTER_BUSY_WITH_ORDERS);
    return Response.json({ message: "Printer deleted successfully." });
  }

  const raw = await readJson(request);
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw apiError(400, "Send the changes as a JSON object.");
  const body = raw as Record<string, unknown>;
  const coordinate = (value: unknown) =>
    value === null || value === "" ? undefined : typeof value === "string" ? Number(value) : value;
  const parsed = UpdateSchema.safeParse({
    ...body,
    pricePerGram: typeof body.pricePerGram === "number" ? String(body.pricePerGram) : body.pricePerGram,
    latitude: coordinate(body.latitude),
    longitude: coordinate(body.longitude),
  });
  if (!parsed.success) return apiValidationError(parsed.error);
  const changes = parsed.data;
  const materials = changes.materials ?? printer.materials;
  const offMaterial = changes.filamentInventory?.find((row) => !materials.includes(row.material));
  if (offMaterial)
    throw apiError(400, `This printer doesn't offer ${offMaterial.material}. Add it to the printer's materials first.`);

  let placement;
  if (changes.location !== undefined || changes.latitude !== undefined) {
    placement = placePrinter(changes.location ?? printer.location, changes);
    if (!placement)
      return Response.json({ message: LOCATION_NOT_FOUND, errors: { location: [LOCATION_NOT_FOUND] } }, { status: 400 });
  }
  const saved = await updatePrinter(user, id, {
    name: changes.name,
    description: changes.description,
    pricePerGram: changes.pricePerGram,
    materials: changes.materials,
    isAvailable: changes.isAvailable,
    placement,
  });
  if (!saved) throw apiError(404, "Printer not found");
  if (changes.filamentInventory) await replaceStock(id, changes.filamentInventory);
  return Response.json(await getPrinterJson(id, { viewerId: user.id }));
}

// GET, PUT and DELETE /api/printers/{id}: anyone reads; only the printer's owner changes or deletes it.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { AppError } from "~/domain/app-error";
import { PrinterUpdateSchema } from "~/domain/printer-form";
import { deletePrinter, findOwnedPrinter, placeAfterEdit, updatePrinter } from "~/services/printers/owner.server";
import { getPrinterJson } from "~/services/printers/search.server";
import { idParam, methodNotAllowed, readJson, requireApiUser } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";
import { getSessionUser } from "~/utils/session.server";
import { apiValidationError, withPlacementRefusal } from "./printers.server";

const PRINTER_NOT_FOUND = "Printer not found";

export async function loader({ params, request }: LoaderFunctionArgs) {
  return withApiErrors(async () => {
    // the owner sees the exact place; everyone else the public one
    const viewer = await getSessionUser(request);
    const printer = await getPrinterJson(idParam(params.id), { viewerId: viewer?.id ?? null });
    if (!printer) throw new AppError("not_found", PRINTER_NOT_FOUND);
    return Response.json(printer);
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  return withApiErrors(() => withPlacementRefusal(() => changePrinter(request, idParam(params.id))));
}

async function changePrinter(request: Request, id: number): Promise<Response> {
  const method = request.method.toUpperCase();
  if (method !== "PUT" && method !== "PATCH" && method !== "DELETE") return methodNotAllowed("GET, PUT, PATCH, DELETE");
  const user = await requireApiUser(request);
  const printer = await findOwnedPrinter(user, id);
  if (!printer) throw new AppError("not_found", PRINTER_NOT_FOUND);

  if (method === "DELETE") {
    if (!(await deletePrinter(user, id))) throw new AppError("not_found", PRINTER_NOT_FOUND);
    return Response.json({ message: "Printer deleted successfully." });
  }

  const body = await readJson(request);
  const coordinate = (value: unknown) =>
    value === null || value === "" ? undefined : typeof value === "string" ? Number(value) : value;
  const parsed = PrinterUpdateSchema.safeParse({
    ...body,
    pricePerGram: typeof body.pricePerGram === "number" ? String(body.pricePerGram) : body.pricePerGram,
    latitude: coordinate(body.latitude),
    longitude: coordinate(body.longitude),
  });
  if (!parsed.success) return apiValidationError(parsed.error);
  const changes = parsed.data;
  const saved = await updatePrinter(user, id, {
    name: changes.name,
    description: changes.description,
    pricePerGram: changes.pricePerGram,
    materials: changes.materials,
    isAvailable: changes.isAvailable,
    placement: placeAfterEdit(printer, changes),
    filamentInventory: changes.filamentInventory,
  });
  if (!saved) throw new AppError("not_found", PRINTER_NOT_FOUND);
  return Response.json(await getPrinterJson(id, { viewerId: user.id }));
}

// GET /api/printers (the search's query parameters) and POST /api/printers (the owner lists a printer).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { AppError } from "~/domain/app-error";
import { AddPrinterSchema, applyModelPresetToJson } from "~/domain/printer-form";
import { MAX_SEARCH_OFFSET, sortParam } from "~/domain/printer-listing";
import { createPrinter, newPrinterFromForm } from "~/services/printers/owner.server";
import { getPrinterJson, searchPrinters } from "~/services/printers/search.server";
import { methodNotAllowed, readJson, requireApiUser } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";
import { apiLocationNotFound, apiValidationError, withPlacementRefusal } from "./printers.server";

function numberQuery(q: URLSearchParams, name: string): number | null {
  const raw = q.get(name)?.trim();
  if (!raw) return null;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new AppError("invalid", `${name} must be a number of 0 or more`);
  return value;
}

/** offset: a whole number up to the furthest the search pages; anything past it is refused, never sent to SQLite. */
function offsetQuery(q: URLSearchParams): number | null {
  const value = numberQuery(q, "offset");
  if (value !== null && (!Number.isSafeInteger(value) || value > MAX_SEARCH_OFFSET)) {
    throw new AppError("invalid", `offset must be a whole number from 0 to ${MAX_SEARCH_OFFSET}`);
  }
  return value;
}

export async function loader({ request }: LoaderFunctionArgs) {
  return withApiErrors(() => search(request));
}

async function search(request: Request): Promise<Response> {
  const q = new URL(request.url).searchParams;
  const available = q.get("available");
  if (available !== null && available !== "" && available !== "true" && available !== "false") {
    throw new AppError("invalid", "available must be true or false");
  }
  const sort = q.get("sort");
  if (sort && !sortParam(sort)) throw new AppError("invalid", "sort must be distance, price, rating or newest");
  const location = q.get("location")?.trim() ?? "";
  const result = await searchPrinters({
    location,
    radiusMiles: numberQuery(q, "radius"),
    material: q.get("material"),
    color: q.get("color"),
    // available=false (the browse page's switch turned off) means every printer, busy ones included.
    available: available === "true",
    minX: numberQuery(q, "minBuildVolumeX"),
    minY: numberQuery(q, "minBuildVolumeY"),
    minZ: numberQuery(q, "minBuildVolumeZ"),
    weightGrams: numberQuery(q, "weight"),
    search: q.get("search"),
    sort: sortParam(sort),
    limit: numberQuery(q, "limit") ?? 100,
    offset: offsetQuery(q),
  });
  if (result.locationNotFound) {
    const choices = result.locationChoices.length > 0 ? result.locationChoices : result.locationSuggestions;
    const message =
      result.locationChoices.length > 0
        ? `"${location}" is in more than one state. Choose one: ${choices.join("; ")}.`
        : choices.length > 0
          ? `Location not found: "${location}". Did you mean: ${choices.join("; ")}?`
          : `Location not found: "${location}". Use a US city and state (Loveland, CO) or a ZIP code.`;
    return apiLocationNotFound(message, choices);
  }
  return Response.json(result.printers, { headers: { "X-Total-Count": String(result.total) } });
}

export async function action({ request }: ActionFunctionArgs) {
  return withApiErrors(() => withPlacementRefusal(() => addPrinter(request)));
}

async function addPrinter(request: Request): Promise<Response> {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  const user = await requireApiUser(request);
  const raw = await readJson(request);
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new AppError("invalid", "Send the printer as a JSON object.");
  const body = raw;
  if (body.ownerId !== undefined && body.ownerId !== null && Number(body.ownerId) !== user.id) {
    throw new AppError("forbidden", "You can only add printers to your own account.");
  }
  const prepared = applyModelPresetToJson({
    ...body,
    pricePerGram: typeof body.pricePerGram === "number" ? String(body.pricePerGram) : body.pricePerGram,
    description: body.description ?? undefined,
    latitude:
      body.latitude === null || body.latitude === ""
        ? undefined
        : typeof body.latitude === "string"
          ? Number(body.latitude)
          : body.latitude,
    longitude:
      body.longitude === null || body.longitude === ""
        ? undefined
        : typeof body.longitude === "string"
          ? Number(body.longitude)
          : body.longitude,
    image: undefined,
  });
  const parsed = AddPrinterSchema.safeParse(prepared);
  if (!parsed.success) return apiValidationError(parsed.error);
  const values = parsed.data;
  // isAvailable defaults to true.
  const printer = await createPrinter(user, newPrinterFromForm(values, { isAvailable: values.isAvailable ?? true }));
  return Response.json(await getPrinterJson(printer.id, { viewerId: user.id }), { status: 201 });
}

// GET /api/printers (both documents' query parameters) and POST /api/printers (the owner lists a printer).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { AddPrinterSchema, modelPreset } from "~/components/printer-form";
import { findPrinterModel } from "~/domain/printer-models";
import {
  apiValidationError,
  createPrinter,
  LOCATION_NOT_FOUND,
  newPrinterFromForm,
  placePrinter,
} from "~/services/printer-owner.server";
import { getPrinterJson, searchPrinters, sortParam } from "~/services/printer-search.server";
import { apiError, readJson, requireApiUser } from "~/utils/api.server";

function numberQuery(q: URLSearchParams, name: string): number | null {
  const raw = q.get(name)?.trim();
  if (!raw) return null;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw apiError(400, `${name} must be a number of 0 or more`);
  return value;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const q = new URL(request.url).searchParams;
  const available = q.get("available");
  if (available !== null && available !== "" && available !== "true" && available !== "false") {
    throw apiError(400, "available must be true or false");
  }
  const sort = q.get("sort");
  if (sort && !sortParam(sort)) throw apiError(400, "sort must be distance, price, rating or newest");
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
    offset: numberQuery(q, "offset"),
  });
  if (result.locationNotFound)
    throw apiError(400, `Location not found: "${location}". Use a US city and state (Loveland, CO) or a ZIP code.`);
  return Response.json(result.printers, { headers: { "X-Total-Count": String(result.total) } });
}

type Body = Record<string, unknown>;

/** The JSON twin of applyModelPreset: a known model's volume is locked; without volumes its price and materials are the defaults. */
function withModelPreset(body: Body): Body {
  const preset = modelPreset(typeof body.model === "string" ? body.model : null);
  if (!preset) return body;
  const volumes = ["buildVolumeX", "buildVolumeY", "buildVolumeZ"] as const;
  const withoutVolume = volumes.every((key) => body[key] === undefined || body[key] === null || body[key] === "");
  const next: Body = { ...body, model: findPrinterModel(String(body.model))!.name };
  for (const key of volumes) next[key] = Number(preset[key]);
  if (withoutVolume && (body.pricePerGram === undefined || body.pricePerGram === "")) next.pricePerGram = preset.pricePerGram;
  if (withoutVolume && (!Array.isArray(body.materials) || body.materials.length === 0)) next.materials = preset.materials;
  return next;
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") throw apiError(400, "Use POST to add a printer");
  const user = await requireApiUser(request);
  const raw = await readJson(request);
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw apiError(400, "Send the printer as a JSON object.");
  const body = raw as Body;
  if (body.ownerId !== undefined && body.ownerId !== null && Number(body.ownerId) !== user.id) {
    throw apiError(403, "You can only add printers to your own account.");
  }
  const prepared = withModelPreset({
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
  const placement = placePrinter(values.location, values);
  if (!placement)
    return Response.json({ message: LOCATION_NOT_FOUND, errors: { location: [LOCATION_NOT_FOUND] } }, { status: 400 });
  // Document 001: isAvailable defaults to true.
  const printer = await createPrinter(user, newPrinterFromForm(values, placement, { isAvailable: values.isAvailable ?? true }));
  return Response.json(await getPrinterJson(printer.id, { viewerId: user.id }), { status: 201 });
}

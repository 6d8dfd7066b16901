// Printer cards and the small pieces the printer pages share.
import { Form } from "./form";
import { Link } from "./link";
import { formatDistance } from "~/domain/geo";
import { formatCents } from "~/domain/money";
import { formatPricePerGram } from "~/domain/pricing";
import type { CardPrinter, DesignQuote, PrinterJson } from "~/domain/printer-listing";
import { useIsPending } from "~/utils/misc-react";

export const DEFAULT_PRINTER_IMAGE = "/api/printer-images/default.jpg";

/** "Leo L." */
export function ownerShortName(owner: PrinterJson["owner"]): string {
  const first = owner.firstName?.trim() || "Owner";
  const initial = owner.lastName?.trim().charAt(0);
  return initial ? `${first} ${initial.toUpperCase()}.` : first;
}

/** "4.8" or "New" when nobody has rated the printer yet. */
export function ratingText(rating: number | null | undefined): string {
  return typeof rating === "number" ? rating.toFixed(1) : "New";
}

export function buildVolumeText(p: Pick<PrinterJson, "buildVolumeX" | "buildVolumeY" | "buildVolumeZ">): string {
  return `${p.buildVolumeX} × ${p.buildVolumeY} × ${p.buildVolumeZ} mm`;
}

/** A drawing of the printer's model or family, which stands in for an owner's photo. */
export function isPrinterDrawing(imageUrl: string): boolean {
  return imageUrl.endsWith(".svg");
}

/** The photo, or the stock image when there is none or it fails to load; a drawing is shown whole, its model's name included. */
export function PrinterPhoto({ printer, className }: { printer: Pick<PrinterJson, "imageUrl" | "name">; className?: string }) {
  const src = printer.imageUrl || DEFAULT_PRINTER_IMAGE;
  return (
    <img
      src={src}
      alt={printer.name}
      loading="lazy"
      className={className}
      // a photo fills its box; a drawing is never cropped, or every card would show the same printer frame
      style={isPrinterDrawing(src) ? { objectFit: "contain" } : undefined}
      onError={(event) => {
        const img = event.currentTarget;
        if (!img.src.endsWith(DEFAULT_PRINTER_IMAGE)) img.src = DEFAULT_PRINTER_IMAGE;
      }}
    />
  );
}

export function AvailabilityBadge({ isAvailable }: { isAvailable: boolean }) {
  return isAvailable ? (
    <span className="badge bg-green-100 text-green-800">Available</span>
  ) : (
    <span className="badge bg-red-100 text-red-800">Busy</span>
  );
}

export function PrinterCard({
  printer,
  selectHref,
  quote,
  compatible,
}: {
  printer: CardPrinter;
  selectHref: string;
  /** this design's total at this printer's rate (price engine), cents */
  quote?: DesignQuote | null;
  compatible?: boolean;
}) {
  return (
    <article className="card flex flex-col overflow-hidden" data-testid="printer-card" aria-label={printer.name}>
      <PrinterPhoto printer={printer} className="h-44 w-full bg-slate-100 object-cover" />
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex items-start justify-between gap-2">
          <div>
            <h3 className="font-semibold">
              <Link to={`/printers/${printer.id}`} className="hover:underline">
                {printer.name}
              </Link>
            </h3>
            <p className="text-sm text-slate-500">
              {printer.model} · by {ownerShortName(printer.owner)}
            </p>
          </div>
          <AvailabilityBadge isAvailable={printer.isAvailable} />
        </div>
        <p className="text-sm text-slate-600">
          <span aria-label="Rating">★ {ratingText(printer.rating)}</span>
          {printer.totalReviews > 0 ? <span className="text-slate-500"> ({printer.totalReviews})</span> : null}
        </p>
        <p className="text-sm text-slate-600">
          {printer.location}
          {typeof printer.distance === "number" ? (
            <span className="ml-1 font-medium text-slate-800" data-testid="distance">
              · {formatDistance(printer.distance)}
            </span>
          ) : null}
        </p>
        <p className="text-sm text-slate-600">Build volume: {buildVolumeText(printer)}</p>
        <ul className="flex flex-wrap gap-1" aria-label="Materials">
          {printer.materials.map((m) => (
            <li key={m} className="badge bg-slate-100 text-slate-700">
              {m}
            </li>
          ))}
        </ul>
        <p className="text-sm">
          <span className="font-semibold" data-testid="price-per-gram">
            {formatPricePerGram(printer.ratePerKgCents)}
          </span>
        </p>
        {quote ? (
          <div className="rounded-md bg-brand-50 p-2 text-sm" data-testid="design-price">
            <p>
              <span className="text-lg font-semibold text-brand-700">{formatCents(quote.customerPays)}</span> for this design
            </p>
            <p className="text-xs text-slate-600">
              Print {formatCents(quote.printerProfit)} + platform fee {formatCents(quote.platformFee)}
            </p>
          </div>
        ) : null}
        {compatible ? <p className="text-xs font-medium text-green-700">✓ Can print your design</p> : null}
        <div className="mt-auto pt-2">
          {printer.isAvailable ? (
            <Link to={selectHref} className="btn-primary w-full">
              Select Printer
            </Link>
          ) : (
            <button type="button" className="btn-secondary w-full" disabled>
              Currently Busy
            </button>
          )}
        </div>
      </div>
    </article>
  );
}

export function PrinterCardSkeleton() {
  return (
    <div className="card overflow-hidden" aria-hidden="true" data-testid="printer-skeleton">
      <div className="skeleton h-44 w-full rounded-none" />
      <div className="space-y-2 p-4">
        <div className="skeleton h-5 w-2/3" />
        <div className="skeleton h-4 w-1/2" />
        <div className="skeleton h-4 w-3/4" />
        <div className="skeleton h-9 w-full" />
      </div>
    </div>
  );
}

/** The online/offline switch: a form post, so it works without JavaScript. */
export function AvailabilitySwitch({ printer }: { printer: Pick<PrinterJson, "id" | "name" | "isAvailable"> }) {
  const pending = useIsPending({
    state: "submitting",
    formAction: "/printer-dashboard",
    intent: "toggle-availability",
    values: { printerId: printer.id },
  });
  const next = !printer.isAvailable;
  return (
    <Form method="post" action="/printer-dashboard" className="inline-flex">
      <input type="hidden" name="intent" value="toggle-availability" />
      <input type="hidden" name="printerId" value={printer.id} />
      <input type="hidden" name="isAvailable" value={String(next)} />
      <button
        type="submit"
        role="switch"
        aria-checked={printer.isAvailable}
        aria-label={`${printer.name} online`}
        disabled={pending}
        className="inline-flex items-center gap-2 rounded-md px-2 py-1 text-sm font-medium text-slate-700 hover:bg-slate-100"
      >
        <span
          className={`relative inline-block h-5 w-9 rounded-full transition-colors ${printer.isAvailable ? "bg-green-600" : "bg-slate-300"}`}
        >
          <span
            className={`absolute top-0.5 h-4 w-4 rounded-full bg-white shadow transition-all ${printer.isAvailable ? "left-4.5" : "left-0.5"}`}
          />
        </span>
        {printer.isAvailable ? "Online" : "Offline"}
        <span className="sr-only">{next ? ": go online" : ": go offline"}</span>
      </button>
    </Form>
  );
}

export const DELETE_PRINTER_CONFIRM = "Are you sure you want to delete this printer? This action cannot be undone.";

/** Delete with a confirmation step that needs no JavaScript: the second button is inside a <details>. */
export function DeletePrinterButton({ printer }: { printer: Pick<PrinterJson, "id" | "name"> }) {
  return (
    <details className="relative">
      <summary className="btn-ghost cursor-pointer text-red-700">Delete</summary>
      <div className="card absolute right-0 z-20 mt-2 w-72 p-4 text-sm" role="alertdialog" aria-label={`Delete ${printer.name}`}>
        <p>{DELETE_PRINTER_CONFIRM}</p>
        <Form method="post" action="/printer-dashboard" className="mt-3">
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="printerId" value={printer.id} />
          <button type="submit" className="btn-danger w-full">
            Yes, delete {printer.name}
          </button>
        </Form>
      </div>
    </details>
  );
}

// The upload page's File Analysis Results and Pricing Breakdown, shared by the server render and the live browser view.
import type { ReactNode } from "react";
import { formatCents } from "~/domain/money";
import { DEFAULT_RATE_PER_KG_CENTS, formatPricePerGram, type PriceQuote } from "~/domain/pricing";
import { priceRangeText, type PriceRange } from "~/domain/price-range";
import { formatMinutes, formatNumber } from "~/domain/format";
import { MESSAGES, type DesignAnalysis } from "~/domain/design-settings";
import { formatGrams } from "~/domain/grams";
import { copiesText } from "~/domain/design-scale";

/** 1536 → "1.5 KB", 52428800 → "50.0 MB". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${Math.max(0, Math.round(bytes || 0))} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const mm = (v: number) => formatNumber(Math.round(v * 10) / 10);

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="flex items-baseline justify-between gap-4 py-1.5">
      <dt className="text-sm text-slate-500">{label}</dt>
      <dd className="text-right text-sm font-medium text-slate-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

export function AnalysisWarning({ reason }: { reason?: string }) {
  return (
    <div
      role="status"
      className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
      data-testid="analysis-warning"
    >
      <p className="font-semibold">{MESSAGES.analysisWarningTitle}</p>
      <p>{MESSAGES.analysisWarning}</p>
      {reason ? <p className="mt-1 text-xs text-amber-800">{reason}</p> : null}
    </div>
  );
}

export function AnalysisResults({
  analysis,
  fileName,
  fileSize,
  printColors,
  quantity = 1,
  unitHint = null,
}: {
  analysis: DesignAnalysis;
  fileName: string;
  fileSize: number;
  /** copies ordered: weight and time are shown per copy and for all */
  quantity?: number;
  /** the part looks drawn in another unit */
  unitHint?: string | null;
  /** the colour count the print is priced for, to point out a multicolour file priced as one colour */
  printColors?: number;
}) {
  return (
    <div className="space-y-3">
      {analysis.method === "file-size" ? <AnalysisWarning reason={analysis.reason} /> : null}
      {unitHint ? (
        <p
          role="status"
          className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
          data-testid="unit-hint"
        >
          {unitHint}
        </p>
      ) : null}
      <dl className="divide-y divide-slate-100">
        <Row label="File">
          <span className="break-all">{fileName}</span>{" "}
          <span className="text-slate-500">
            ({formatBytes(fileSize)}, {analysis.fileFormat.toUpperCase()})
          </span>
        </Row>
        <Row label="Estimated weight" testId="analysis-weight">
          {formatGrams(analysis.estimatedWeight)} g
          {quantity > 1 ? ` each, ${formatGrams(analysis.estimatedWeight * quantity)} g for ${copiesText(quantity)}` : ""}
        </Row>
        <Row label="Estimated print time" testId="analysis-time">
          {formatMinutes(analysis.estimatedTimeMinutes)}
          {quantity > 1
            ? ` each, ${formatMinutes(Math.max(1, Math.round(analysis.estimatedTimeMinutes)) * quantity)} for ${copiesText(quantity)}`
            : ""}
        </Row>
        {analysis.method === "mesh" ? (
          <>
            <Row label="Size (X × Y × Z)" testId="analysis-size">
              {mm(analysis.boundingBox.x)} × {mm(analysis.boundingBox.y)} × {mm(analysis.boundingBox.z)} mm
            </Row>
            <Row label="Volume">{(analysis.volume / 1000).toFixed(2)} cm³</Row>
            <Row label="Surface area">{(analysis.surfaceArea / 100).toFixed(1)} cm²</Row>
            <Row label="Triangles">{formatNumber(analysis.triangles)}</Row>
            <Row label="Parts">{analysis.bodies}</Row>
            <Row label="Watertight">
              {analysis.closed ? (
                "Yes"
              ) : (
                <span className="text-amber-700">
                  No ({formatNumber(analysis.openEdges)} open edges; the printer owner may need to repair it)
                </span>
              )}
            </Row>
            <Row label="Colors in the file">
              {analysis.numberOfColors}
              {printColors !== undefined && analysis.numberOfColors > printColors ? (
                <span className="block text-xs font-normal text-amber-700" data-testid="colors-hint">
                  Set “Colors in the print” to {analysis.numberOfColors} to print it in its colours.
                </span>
              ) : null}
            </Row>
            <Row label="Support material">{analysis.supportMaterial ? "Included in the estimate" : "Not needed"}</Row>
          </>
        ) : (
          <Row label="Size">Unknown until a printer owner opens the file</Row>
        )}
        <Row label="Settings used">
          {analysis.material}, {analysis.layerHeight} mm layers, {analysis.infillDensity}% infill, supports {analysis.supports}
        </Row>
      </dl>
    </div>
  );
}

export function PricingBreakdown({
  quote,
  printer,
  range = null,
}: {
  quote: PriceQuote;
  printer: { id: number; name: string; ratePerKgCents: number } | null;
  /** before a printer is chosen: what the printers near the customer that can print the design charge */
  range?: PriceRange | null;
}) {
  return (
    <div>
      <dl className="divide-y divide-slate-100">
        {quote.quantity > 1 ? (
          <Row label="Copies" testId="price-quantity">
            {quote.quantity}
          </Row>
        ) : null}
        <Row
          label={`Material (${formatGrams(quote.estimatedWeight)} g at ${formatCents(quote.filamentCostPer1000g)}/kg)`}
          testId="price-material"
        >
          {formatCents(quote.materialCost)}
        </Row>
        <Row label="Multicolor premium" testId="price-multicolor">
          {formatCents(quote.multicolorPremium)}
        </Row>
        {quote.timePremium > 0 ? (
          <Row label="Multicolor print time" testId="price-time">
            {formatCents(quote.timePremium)}
          </Row>
        ) : null}
        <Row label="Printer earns" testId="price-printer-profit">
          {formatCents(quote.printerProfit)}
        </Row>
        <Row label="Platform fee (15%, at least $1.00)" testId="price-platform-fee">
          {formatCents(quote.platformFee)}
        </Row>
      </dl>
      <div className="mt-2 flex items-baseline justify-between border-t border-slate-200 pt-3">
        <span className="font-semibold">You pay</span>
        <span className="text-2xl font-bold" data-testid="price-total">
          {formatCents(quote.customerPays)}
        </span>
      </div>
      {!printer && range ? (
        <p className="mt-1 text-sm font-medium" data-testid="price-range">
          Estimated total {priceRangeText(range)}
        </p>
      ) : null}
      <p className="mt-2 text-xs text-slate-500">
        {printer
          ? `Priced at ${printer.name}'s rate of ${formatPricePerGram(printer.ratePerKgCents)}.`
          : range?.kind === "printers"
            ? "Priced at the lowest rate of the printers near you that can print it; the printer you choose sets the final price with its own rate."
            : `Priced at the platform default of ${formatCents(DEFAULT_RATE_PER_KG_CENTS)} per kg; the printer you choose sets the final price with its own rate.`}{" "}
        Delivery is added when you order: pickup is free, local delivery adds $5.00, shipping adds the USPS rate.
      </p>
    </div>
  );
}

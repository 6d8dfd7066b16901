// The money rows of an order (submit, checkout, order page): integer cents, formatted once.
import { formatCents } from "~/domain/money";

export function OrderSummary({
  rows,
  totalCents,
}: {
  rows: { label: string; cents: number | null; note?: string; free?: boolean }[];
  totalCents: number | null;
}) {
  return (
    <dl className="space-y-1 text-sm">
      {rows.map((row) => (
        <div key={row.label} className="flex justify-between gap-4">
          <dt className="text-slate-600">
            {row.label}
            {row.note ? <span className="text-slate-500"> ({row.note})</span> : null}
          </dt>
          <dd>{row.cents === null ? "—" : row.free ? "Free" : formatCents(row.cents)}</dd>
        </div>
      ))}
      <div className="flex justify-between gap-4 border-t border-slate-200 pt-2 text-base font-semibold">
        <dt>Total</dt>
        <dd data-testid="order-total">{totalCents === null ? "—" : formatCents(totalCents)}</dd>
      </div>
    </dl>
  );
}

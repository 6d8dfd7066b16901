import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { Form } from "~/components/form";
import { Link } from "~/components/link";
import { useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { formatCents } from "~/domain/money";
import {
  DEFAULT_RATE_PER_KG_CENTS,
  LOCAL_DELIVERY_FEE_CENTS,
  materialRatePerKgCents,
  MAX_COLORS,
  MIN_COLORS,
  MULTICOLOR_PREMIUM_PER_EXTRA_COLOR_CENTS,
  PLATFORM_FEE_MINIMUM_CENTS,
  PLATFORM_FEE_PERCENT,
  tierPublicPriceCents,
  TIME_PREMIUM_BLOCK_MINUTES,
  TIME_PREMIUM_PER_BLOCK_CENTS,
  WEIGHT_TIERS,
} from "~/domain/pricing";
import {
  calculate,
  DELIVERY_CHOICES,
  HOURS,
  MATERIAL_CHOICES,
  queryOf,
  readInput,
  SHIPPING_ESTIMATE_CENTS,
  WEIGHT,
  type RawInput,
} from "./calculator";
import { pricingExamples } from "./examples.server";
import { ErrorList } from "~/components/forms";

export const meta: MetaFunction = () => [{ title: "Pricing | Printnear" }];

export function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const raw: Partial<RawInput> = {};
  for (const key of ["weight", "colors", "hours", "material", "delivery"] as const) {
    const value = params.get(key);
    if (value !== null) raw[key] = value;
  }
  const { input, errors } = readInput(raw);
  return {
    // what was asked for, so the live calculator shows the same values and messages as the server
    raw: { ...Object.fromEntries(Object.entries(input).map(([k, v]) => [k, String(v)])), ...raw } as RawInput,
    input,
    errors,
    result: calculate(input),
    tiers: WEIGHT_TIERS.map((tier) => ({ ...tier, publicPriceCents: tierPublicPriceCents(tier) })),
    examples: pricingExamples().map((example) => ({ ...example, totalCents: calculate(example.input).totalCents })),
  };
}

export default function PricingPage() {
  const { tiers, examples } = useLoaderData<typeof loader>();
  const location = useLocation();
  const first = tiers[0]!;
  const last = tiers[tiers.length - 1]!;

  return (
    <div className="container-page py-10">
      <div className="max-w-3xl">
        <h1 className="text-3xl font-bold tracking-tight">Simple, transparent pricing</h1>
        <p className="mt-3 text-slate-600">
          A print's price comes from its weight, its colours and its print time. Printer owners earn the print cost; Printnear
          adds a {PLATFORM_FEE_PERCENT}% platform fee (at least {formatCents(PLATFORM_FEE_MINIMUM_CENTS)}), already included in
          every price you see.
        </p>
      </div>

      {/* a new key per URL resets the live calculator to what the server computed for that address */}
      <Calculator key={location.search} />

      <section className="mt-12" aria-labelledby="tiers-title">
        <h2 id="tiers-title" className="text-2xl font-semibold">
          Weight tiers
        </h2>
        <p className="mt-2 max-w-3xl text-slate-600">
          Weight tiers from {formatCents(first.publicPriceCents)} ({first.minGrams}-{first.maxGrams} g) to{" "}
          {formatCents(last.publicPriceCents)} ({last.minGrams}-{last.maxGrams} g): a printer fee plus a platform fee. They give a
          feel for typical parts; your quote is always computed from weight, colours and time. Pick a tier to set the calculator's
          weight to its minimum.
        </p>
        <div className="card mt-4 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="bg-slate-50 text-slate-600">
              <tr>
                <th scope="col" className="px-4 py-2 font-medium">
                  Weight
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Typical parts
                </th>
                <th scope="col" className="px-4 py-2 text-right font-medium">
                  Printer fee
                </th>
                <th scope="col" className="px-4 py-2 text-right font-medium">
                  Platform fee
                </th>
                <th scope="col" className="px-4 py-2 text-right font-medium">
                  Public price
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {tiers.map((tier) => (
                <tr key={tier.minGrams} data-testid="weight-tier">
                  <th scope="row" className="px-4 py-2 font-medium">
                    <TierLink minGrams={tier.minGrams} label={`${tier.minGrams}-${tier.maxGrams} g`} />
                  </th>
                  <td className="px-4 py-2 text-slate-600">{tier.description}</td>
                  <td className="px-4 py-2 text-right">{formatCents(tier.printerFeeCents)}</td>
                  <td className="px-4 py-2 text-right">{formatCents(tier.platformFeeCents)}</td>
                  <td className="px-4 py-2 text-right font-semibold">{formatCents(tier.publicPriceCents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section className="mt-12" aria-labelledby="rules-title">
        <h2 id="rules-title" className="text-2xl font-semibold">
          How a quote is built
        </h2>
        <ul className="mt-3 list-disc space-y-1 pl-6 text-slate-700">
          <li>
            Material: the weight times the printer's own rate per kilogram. Before you choose a printer, model pages and uploads
            show what the printers that can print it charge, each at its own rate; the platform rate of{" "}
            {formatCents(DEFAULT_RATE_PER_KG_CENTS)}/kg is used only when no printer can print it yet.
          </li>
          <li>Each extra colour +{formatCents(MULTICOLOR_PREMIUM_PER_EXTRA_COLOR_CENTS)}.</li>
          <li>
            Multicolour prints add {formatCents(TIME_PREMIUM_PER_BLOCK_CENTS)} per {TIME_PREMIUM_BLOCK_MINUTES}-minute interval of
            print time.
          </li>
          <li>
            Platform fee {PLATFORM_FEE_PERCENT}% (at least {formatCents(PLATFORM_FEE_MINIMUM_CENTS)}), included in the price.
          </li>
          <li>
            Delivery: pickup is free, local delivery is a flat {formatCents(LOCAL_DELIVERY_FEE_CENTS)}, shipping costs what the
            carrier charges (about {formatCents(SHIPPING_ESTIMATE_CENTS)}).
          </li>
        </ul>
      </section>

      <section className="mt-12" aria-labelledby="examples-title">
        <h2 id="examples-title" className="text-2xl font-semibold">
          Examples
        </h2>
        <ul className="mt-4 grid gap-4 md:grid-cols-3">
          {examples.map((example) => (
            <li key={example.title} className="card p-5" data-testid="pricing-example">
              <h3 className="font-semibold">{example.title}</h3>
              <p className="mt-1 text-sm text-slate-600">
                {example.input.weight} g, {example.input.colors} {example.input.colors === 1 ? "colour" : "colours"},{" "}
                {example.input.hours} h, {example.input.material === "platform" ? "platform rate" : example.input.material},{" "}
                {DELIVERY_CHOICES.find((d) => d.id === example.input.delivery)?.label.toLowerCase()}
              </p>
              <p className="mt-3 text-2xl font-bold">{formatCents(example.totalCents)}</p>
              <Link
                to={`/pricing?${queryOf(example.input)}`}
                preventScrollReset
                className="mt-3 inline-block text-sm font-medium text-brand-700 underline"
              >
                Try it in the calculator
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

function TierLink({ minGrams, label }: { minGrams: number; label: string }) {
  const { input } = useLoaderData<typeof loader>();
  const weight = Math.max(WEIGHT.min, minGrams);
  return (
    <Link
      to={`/pricing?${queryOf({ ...input, weight })}#calculator`}
      preventScrollReset
      className="text-brand-700 underline"
      aria-label={`Set weight to ${weight} g (${label})`}
    >
      {label}
    </Link>
  );
}

function Calculator() {
  const loaderData = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  const [raw, setRaw] = useState<RawInput>(loaderData.raw);
  // with JavaScript the figures follow every keystroke; the server computed the first ones
  const live = hydrated ? readInput(raw) : { input: loaderData.input, errors: loaderData.errors };
  const { quote, ratePerKgCents, deliveryCents, totalCents } = hydrated ? calculate(live.input) : loaderData.result;
  const errors = live.errors;
  const set = (key: keyof RawInput) => (event: { target: { value: string } }) =>
    setRaw((r) => ({ ...r, [key]: event.target.value }));

  return (
    <section id="calculator" className="mt-8 grid gap-6 lg:grid-cols-2" aria-labelledby="calculator-title">
      <Form method="get" action="/pricing" preventScrollReset className="card space-y-5 p-6">
        <h2 id="calculator-title" className="text-xl font-semibold">
          Price calculator
        </h2>
        <div>
          <label htmlFor="calc-weight" className="label">
            Weight (grams)
          </label>
          <input
            id="calc-weight"
            name="weight"
            type="number"
            min={WEIGHT.min}
            max={WEIGHT.max}
            step="any"
            value={raw.weight}
            onChange={set("weight")}
            className="input"
            aria-invalid={errors.weight ? true : undefined}
            aria-describedby={errors.weight ? "calc-weight-error" : undefined}
          />
          {hydrated ? (
            <input
              type="range"
              aria-label="Weight slider"
              min={0}
              max={WEIGHT.max}
              step={WEIGHT.sliderStep}
              value={Number(raw.weight) || 0}
              onChange={(e) => setRaw((r) => ({ ...r, weight: String(Math.max(WEIGHT.min, Number(e.target.value))) }))}
              className="mt-2 w-full accent-brand-600"
            />
          ) : null}
          <ErrorList id="calc-weight-error" errors={[errors.weight]} />
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <div>
            <label htmlFor="calc-colors" className="label">
              Colours
            </label>
            <select id="calc-colors" name="colors" value={raw.colors} onChange={set("colors")} className="input">
              {Array.from({ length: MAX_COLORS - MIN_COLORS + 1 }, (_, i) => MIN_COLORS + i).map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
            <ErrorList id="calc-colors-error" errors={[errors.colors]} />
          </div>
          <div>
            <label htmlFor="calc-hours" className="label">
              Print time (hours)
            </label>
            <input
              id="calc-hours"
              name="hours"
              type="number"
              min={HOURS.min}
              max={HOURS.max}
              step={HOURS.step}
              value={raw.hours}
              onChange={set("hours")}
              className="input"
              aria-invalid={errors.hours ? true : undefined}
              aria-describedby={errors.hours ? "calc-hours-error" : undefined}
            />
            <ErrorList id="calc-hours-error" errors={[errors.hours]} />
          </div>
          <div>
            <label htmlFor="calc-material" className="label">
              Material
            </label>
            <select id="calc-material" name="material" value={raw.material} onChange={set("material")} className="input">
              {MATERIAL_CHOICES.map((m) => (
                <option key={m} value={m}>
                  {m === "platform"
                    ? `Platform rate (${formatCents(DEFAULT_RATE_PER_KG_CENTS)}/kg)`
                    : `${m} (${formatCents(materialRatePerKgCents(m))}/kg)`}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="calc-delivery" className="label">
              Delivery
            </label>
            <select id="calc-delivery" name="delivery" value={raw.delivery} onChange={set("delivery")} className="input">
              {DELIVERY_CHOICES.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.label}
                </option>
              ))}
            </select>
          </div>
        </div>
        <button type="submit" className="btn-primary">
          Calculate
        </button>
      </Form>

      <div className="card p-6" aria-live="polite" data-testid="calculator-result">
        <h2 className="text-xl font-semibold">Your estimate</h2>
        <dl className="mt-4 space-y-2 text-sm">
          <Row label={`Material (${formatCents(ratePerKgCents)}/kg)`} value={quote.materialCost} />
          <Row label="Multicolour premium" value={quote.multicolorPremium} />
          <Row label="Print time premium" value={quote.timePremium} />
          <Row label="Printer earns" value={quote.printerProfit} strong />
          <Row label={`Platform fee (${PLATFORM_FEE_PERCENT}%)`} value={quote.platformFee} />
          <Row label="Customer pays" value={quote.customerPays} strong testId="customer-pays" />
          <Row label="Delivery" value={deliveryCents} />
        </dl>
        <div className="mt-4 flex items-baseline justify-between border-t border-slate-200 pt-4">
          <span className="text-lg font-semibold">Total</span>
          <span className="text-3xl font-bold" data-testid="calculator-total">
            {formatCents(totalCents)}
          </span>
        </div>
        <p className="mt-4 text-sm text-slate-600">
          The material rate here is a typical one. The printer you choose sets the final price: its own rate per gram replaces
          this rate when you order.
        </p>
      </div>
    </section>
  );
}

function Row({ label, value, strong, testId }: { label: string; value: number; strong?: boolean; testId?: string }) {
  return (
    <div className={`flex justify-between ${strong ? "font-semibold" : ""}`}>
      <dt className={strong ? "" : "text-slate-600"}>{label}</dt>
      <dd data-testid={testId}>{formatCents(value)}</dd>
    </div>
  );
}

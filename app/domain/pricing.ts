// The one price engine: pure, integer cents, shared by every screen and the server.

import { findMaterial } from "./materials";
import { decimalToScaledInt, dollarsToCents } from "./money";

/** Platform default filament rate before a printer is chosen: 15 dollars per 1000 g. */
export const DEFAULT_RATE_PER_KG_CENTS = 1500;
export const DEFAULT_COLORS = 1;
export const DEFAULT_PRINT_TIME_MINUTES = 60;
export const MIN_COLORS = 1;
export const MAX_COLORS = 8;
export const MIN_QUANTITY = 1;
export const MAX_QUANTITY = 50;

export const MULTICOLOR_PREMIUM_PER_EXTRA_COLOR_CENTS = 200;
export const TIME_PREMIUM_PER_BLOCK_CENTS = 50;
export const TIME_PREMIUM_BLOCK_MINUTES = 15;
export const PLATFORM_FEE_PERCENT = 15;
export const PLATFORM_FEE_MINIMUM_CENTS = 100;
/** Local delivery is a flat fee. */
export const LOCAL_DELIVERY_FEE_CENTS = 500;

export interface WeightTier {
  minGrams: number;
  maxGrams: number;
  printerFeeCents: number;
  platformFeeCents: number;
  description: string;
}

/** The weight tier table. It never feeds totals; the pricing page derives public prices from it. */
export const WEIGHT_TIERS: readonly WeightTier[] = Object.freeze(
  [
    { minGrams: 0, maxGrams: 25, printerFeeCents: 49, platformFeeCents: 49, description: "Keychain/trinkets" },
    { minGrams: 26, maxGrams: 50, printerFeeCents: 79, platformFeeCents: 79, description: "Small toys/parts" },
    { minGrams: 51, maxGrams: 100, printerFeeCents: 99, platformFeeCents: 99, description: "Small objects" },
    { minGrams: 101, maxGrams: 150, printerFeeCents: 129, platformFeeCents: 119, description: "Medium objects" },
    { minGrams: 151, maxGrams: 200, printerFeeCents: 159, platformFeeCents: 139, description: "Larger parts" },
    { minGrams: 201, maxGrams: 250, printerFeeCents: 199, platformFeeCents: 149, description: "Heavy objects" },
    { minGrams: 251, maxGrams: 500, printerFeeCents: 399, platformFeeCents: 299, description: "Entry heavy tier" },
    { minGrams: 501, maxGrams: 750, printerFeeCents: 499, platformFeeCents: 349, description: "For serious hobbyists" },
    { minGrams: 751, maxGrams: 1000, printerFeeCents: 599, platformFeeCents: 399, description: "Pro-tier" },
  ].map((tier) => Object.freeze(tier)),
);

function assertWeight(grams: number): void {
  if (typeof grams !== "number" || !Number.isFinite(grams) || grams < 0) {
    throw new RangeError(`Weight must be a non-negative number of grams, got ${String(grams)}`);
  }
}

/** Fractional grams round up (25.1 g → 26-50 g) so a part never lands in a lighter tier; above 1000 g the last tier. */
export function weightTierFor(grams: number): WeightTier {
  assertWeight(grams);
  const whole = Math.ceil(grams);
  const last = WEIGHT_TIERS[WEIGHT_TIERS.length - 1]!;
  return WEIGHT_TIERS.find((tier) => whole <= tier.maxGrams) ?? last;
}

/** Public price of a tier on the pricing page: printer fee plus platform fee (0-25 g → 98). */
export function tierPublicPriceCents(tier: WeightTier): number {
  return tier.printerFeeCents + tier.platformFeeCents;
}

export interface QuoteInput {
  /** every copy together */
  weightGrams: number;
  /** null/undefined → 1 */
  colors?: number | null;
  /** every copy together; null/undefined → 60 */
  printTimeMinutes?: number | null;
  /** copies; null/undefined → 1. The multicolour premium is per copy, the platform fee's minimum per order. */
  quantity?: number | null;
  /** Cents per 1000 g; null/undefined → the platform default 1500. */
  ratePerKgCents?: number | null;
}

/** A price quote. Every money field is integer cents. */
export interface PriceQuote {
  /** grams, as given (every copy together) */
  estimatedWeight: number;
  quantity: number;
  /** cents per 1000 g used for this quote */
  filamentCostPer1000g: number;
  basePrintCost: number;
  materialCost: number;
  multicolorPremium: number;
  timePremium: number;
  platformFee: number;
  printerProfit: number;
  customerPays: number;
  weightTier: WeightTier;
}

/** Half-up rounding of a non-negative float; toPrecision strips binary noise so 0.5 really is 0.5. */
function roundHalfUp(value: number): number {
  return Math.floor(Number(value.toPrecision(12)) + 0.5);
}

export function quotePrice(input: QuoteInput): PriceQuote {
  const weightGrams = input.weightGrams;
  const colors = input.colors ?? DEFAULT_COLORS;
  const printTimeMinutes = input.printTimeMinutes ?? DEFAULT_PRINT_TIME_MINUTES;
  const ratePerKgCents = input.ratePerKgCents ?? DEFAULT_RATE_PER_KG_CENTS;
  const quantity = input.quantity ?? 1;

  assertWeight(weightGrams);
  if (typeof quantity !== "number" || !Number.isInteger(quantity) || quantity < MIN_QUANTITY || quantity > MAX_QUANTITY) {
    throw new RangeError(`Copies must be a whole number from ${MIN_QUANTITY} to ${MAX_QUANTITY}, got ${String(quantity)}`);
  }
  if (typeof colors !== "number" || !Number.isInteger(colors) || colors < MIN_COLORS || colors > MAX_COLORS) {
    throw new RangeError(`Colours must be a whole number from ${MIN_COLORS} to ${MAX_COLORS}, got ${String(colors)}`);
  }
  if (typeof printTimeMinutes !== "number" || !Number.isFinite(printTimeMinutes) || printTimeMinutes < 0) {
    throw new RangeError(`Print time must be a non-negative number of minutes, got ${String(printTimeMinutes)}`);
  }
  if (typeof ratePerKgCents !== "number" || !Number.isFinite(ratePerKgCents) || ratePerKgCents < 0) {
    throw new RangeError(`Rate must be a non-negative number of cents per kg, got ${String(ratePerKgCents)}`);
  }

  const materialCost = roundHalfUp((weightGrams * ratePerKgCents) / 1000);
  const basePrintCost = materialCost;
  const multicolorPremium = (colors - 1) * MULTICOLOR_PREMIUM_PER_EXTRA_COLOR_CENTS * quantity;
  // Print time is charged only when the job is multicolor.
  const timePremium = colors > 1 ? Math.ceil(printTimeMinutes / TIME_PREMIUM_BLOCK_MINUTES) * TIME_PREMIUM_PER_BLOCK_CENTS : 0;
  const printerProfit = basePrintCost + multicolorPremium + timePremium;
  // Integer arithmetic: (x * 15 + 50) / 100 floored is exact half-up rounding of 15% of x cents.
  const percentFee = Math.floor((printerProfit * PLATFORM_FEE_PERCENT + 50) / 100);
  const platformFee = Math.max(PLATFORM_FEE_MINIMUM_CENTS, percentFee);

  return {
    estimatedWeight: weightGrams,
    quantity,
    filamentCostPer1000g: ratePerKgCents,
    basePrintCost,
    materialCost,
    multicolorPremium,
    timePremium,
    platformFee,
    printerProfit,
    customerPays: printerProfit + platformFee,
    weightTier: weightTierFor(weightGrams),
  };
}

/** A printer's pricePerGram in dollars ("0.12", quick form "0.0250") as cents per kg: $0.12/g → 12000; null if invalid. */
export function ratePerKgCentsFromPricePerGram(dollarsPerGram: string | number): number | null {
  // 10^5 = 100 cents per dollar × 1000 g per kg; 4-decimal prices therefore convert exactly.
  const rate = decimalToScaledInt(dollarsPerGram, 5);
  return rate === null || rate < 0 ? null : rate;
}

/** Inverse for forms and display: 12000 → "0.12", 2500 → "0.025", 2550 → "0.0255" (2 to 5 decimals). */
export function pricePerGramFromRatePerKgCents(ratePerKgCents: number): string {
  const rate = Math.round(ratePerKgCents);
  const sign = rate < 0 ? "-" : "";
  const abs = Math.abs(rate);
  let fraction = String(abs % 100000).padStart(5, "0");
  while (fraction.length > 2 && fraction.endsWith("0")) fraction = fraction.slice(0, -1);
  return `${sign}${Math.floor(abs / 100000)}.${fraction}`;
}

/** The spool weights an owner's quick form offers, in grams. */
export const SPOOL_WEIGHTS_GRAMS = [1000, 750, 500, 250] as const;

/** A spool's cost over its grams, to 4 decimals: "24.99" over 1000 g is "0.0250"; null when the cost is not an amount. */
export function pricePerGramFromSpool(cost: string, grams: number): string | null {
  const cents = dollarsToCents(cost);
  if (cents === null || cents <= 0 || !Number.isInteger(grams) || grams <= 0) return null;
  const tenThousandths = Math.round((cents * 100) / grams);
  return `${Math.floor(tenThousandths / 10_000)}.${String(tenThousandths % 10_000).padStart(4, "0")}`;
}

/** "$0.12/g" for printer cards and popups. */
export function formatPricePerGram(ratePerKgCents: number): string {
  return `$${pricePerGramFromRatePerKgCents(ratePerKgCents)}/g`;
}

/** The pricing calculator's typical rate for a material, default rate when unknown. */
export function materialRatePerKgCents(materialName: string | null | undefined): number {
  const material = findMaterial(materialName);
  return material ? material.typicalRatePerKg * 100 : DEFAULT_RATE_PER_KG_CENTS;
}

export const DELIVERY_METHODS = ["pickup", "delivery", "shipping"] as const;
export type DeliveryMethod = (typeof DELIVERY_METHODS)[number];

export function isDeliveryMethod(value: unknown): value is DeliveryMethod {
  return typeof value === "string" && (DELIVERY_METHODS as readonly string[]).includes(value);
}

/** Pickup 0, local delivery a flat 500, shipping the chosen option's cost (required). */
export function deliveryFeeCents(method: DeliveryMethod, shippingCents?: number | null): number {
  switch (method) {
    case "pickup":
      return 0;
    case "delivery":
      return LOCAL_DELIVERY_FEE_CENTS;
    case "shipping":
      if (typeof shippingCents !== "number" || !Number.isSafeInteger(shippingCents) || shippingCents < 0) {
        throw new RangeError(`Shipping needs the shipping option's cost in whole cents, got ${String(shippingCents)}`);
      }
      return shippingCents;
    default:
      throw new RangeError(`Unknown delivery method: ${String(method)}`);
  }
}

export interface OrderTotal {
  subtotal: number;
  deliveryFee: number;
  total: number;
}

/** What the customer is charged: the quote's customerPays plus delivery. */
export function orderTotal(args: {
  quote: Pick<PriceQuote, "customerPays">;
  deliveryMethod: DeliveryMethod;
  shippingCents?: number | null;
}): OrderTotal {
  const subtotal = args.quote.customerPays;
  const deliveryFee = deliveryFeeCents(args.deliveryMethod, args.shippingCents);
  return { subtotal, deliveryFee, total: subtotal + deliveryFee };
}

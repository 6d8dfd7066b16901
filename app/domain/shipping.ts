// Delivery rules and the built-in USPS-style rate table (docs/decisions/023-shipping-rates.md): the zone comes from
// the distance between the printer's ZIP and the delivery ZIP, the price from zone and weight.
// These rates are estimates; with a shipping-rate provider configured, live rates replace them.
import type { DeliveryMethod } from "./pricing";

export interface ShippingOption {
  carrier: string;
  /** the service's token; the order form posts it back and the server re-prices it */
  service: string;
  description: string;
  /** integer cents */
  estimatedCost: number;
  estimatedDays?: number | null;
}

export interface ShippingQuote {
  options: ShippingOption[];
  defaultOption: ShippingOption | null;
  /** true when the prices come from our table, not the carrier */
  estimated: boolean;
}

/** Local delivery is offered within this distance of the printer. */
export const LOCAL_DELIVERY_RADIUS_MILES = 25;
export const ZIP_PATTERN = /^\d{5}$/;

export function isZip(value: unknown): value is string {
  return typeof value === "string" && ZIP_PATTERN.test(value);
}

/** USPS-style zones by distance in miles (zone 1 covers local and up to 50 miles). */
const ZONE_LIMITS_MILES = [50, 150, 300, 600, 1000, 1400, 1800] as const;

export function shippingZone(miles: number): number {
  const index = ZONE_LIMITS_MILES.findIndex((limit) => miles <= limit);
  return index === -1 ? 8 : index + 1;
}

/** Packaging added to the print's weight. */
export const PACKAGING_GRAMS = 100;

/** Weight bands in grams (4, 8, 12 oz, then whole pounds up to 10 lb) and each service's price per zone 1-8, in cents. */
const BANDS_GRAMS = [113, 227, 340, 454, 907, 1361, 1814, 2268, 4536] as const;
const GROUND_ADVANTAGE: readonly (readonly number[])[] = [
  [500, 510, 520, 530, 545, 560, 575, 590],
  [560, 570, 580, 600, 620, 645, 670, 700],
  [650, 665, 690, 720, 760, 800, 845, 890],
  [760, 780, 820, 880, 960, 1050, 1130, 1240],
  [870, 900, 990, 1120, 1290, 1460, 1640, 1810],
  [960, 1010, 1140, 1320, 1560, 1820, 2090, 2360],
  [1040, 1100, 1270, 1510, 1800, 2130, 2470, 2820],
  [1120, 1190, 1390, 1690, 2040, 2450, 2870, 3300],
  [1460, 1570, 1880, 2390, 3010, 3700, 4410, 5150],
];
const PRIORITY_MAIL: readonly (readonly number[])[] = [
  [910, 935, 960, 1000, 1060, 1140, 1250, 1390],
  [910, 935, 960, 1000, 1060, 1140, 1250, 1390],
  [910, 935, 960, 1000, 1060, 1140, 1250, 1390],
  [910, 935, 960, 1000, 1060, 1140, 1250, 1390],
  [1000, 1050, 1120, 1240, 1450, 1690, 1920, 2130],
  [1090, 1160, 1300, 1480, 1790, 2130, 2430, 2730],
  [1180, 1270, 1450, 1730, 2100, 2520, 2940, 3370],
  [1290, 1390, 1600, 1970, 2430, 2960, 3480, 4000],
  [1700, 1880, 2290, 2960, 3810, 4770, 5690, 6600],
];
/** Above the last band each extra pound adds this per zone step, in cents. */
const EXTRA_POUND_CENTS = 90;

function priceFor(table: readonly (readonly number[])[], grams: number, zone: number): number {
  const band = BANDS_GRAMS.findIndex((limit) => grams <= limit);
  const z = Math.min(Math.max(zone, 1), 8) - 1;
  if (band !== -1) return table[band]![z]!;
  const extraPounds = Math.ceil((grams - BANDS_GRAMS[BANDS_GRAMS.length - 1]!) / 453.6);
  return table[table.length - 1]![z]! + extraPounds * EXTRA_POUND_CENTS * (z + 1);
}

/** The built-in table's options for a parcel of the print's weight travelling this many miles. */
export function tableShippingQuote(printGrams: number, miles: number): ShippingQuote {
  const grams = Math.max(0, printGrams) + PACKAGING_GRAMS;
  const zone = shippingZone(miles);
  const options: ShippingOption[] = [
    {
      carrier: "USPS",
      service: "usps_ground_advantage",
      description: `Ground Advantage (estimated, zone ${zone}, 2-5 business days)`,
      estimatedCost: priceFor(GROUND_ADVANTAGE, grams, zone),
      estimatedDays: zone <= 4 ? 3 : 5,
    },
    {
      carrier: "USPS",
      service: "usps_priority",
      description: `Priority Mail (estimated, zone ${zone}, 1-3 business days)`,
      estimatedCost: priceFor(PRIORITY_MAIL, grams, zone),
      estimatedDays: zone <= 4 ? 2 : 3,
    },
  ];
  return { options, defaultOption: options[0]!, estimated: true };
}

/** The cheapest option is the default. */
export function cheapestOption(options: ShippingOption[]): ShippingOption | null {
  return options.reduce<ShippingOption | null>((best, o) => (!best || o.estimatedCost < best.estimatedCost ? o : best), null);
}

/** How each delivery method is named on order screens. */
export const DELIVERY_METHOD_NAMES: Record<DeliveryMethod, string> = {
  pickup: "Local Pickup",
  delivery: "Local Delivery",
  shipping: "USPS Shipping",
};

const SERVICE_NAMES: Record<string, string> = {
  usps_ground_advantage: "Ground Advantage",
  usps_priority: "Priority Mail",
};

/** A shipping service token as people read it ("usps_priority" is Priority Mail). */
export function shippingServiceName(token: string): string {
  return SERVICE_NAMES[token] ?? token.replace(/^usps_/, "").replace(/_/g, " ");
}

/** An order summary's delivery line: pickup is free, local delivery its flat fee, shipping its service and cost. */
export function deliveryLine(order: {
  deliveryMethod: DeliveryMethod;
  shippingService?: string | null;
  deliveryFeeCents: number;
}): {
  label: string;
  cents: number;
  free: boolean;
} {
  const name = DELIVERY_METHOD_NAMES[order.deliveryMethod];
  const label =
    order.deliveryMethod === "shipping" && order.shippingService
      ? `${name} (${shippingServiceName(order.shippingService)})`
      : name;
  return { label, cents: order.deliveryFeeCents, free: order.deliveryMethod === "pickup" && order.deliveryFeeCents === 0 };
}

// The public price calculator's inputs and figures: its ranges, reading the fields, and the one engine.
import { UPLOAD_MATERIALS } from "~/domain/materials";
import { formatCents } from "~/domain/money";
import {
  DEFAULT_RATE_PER_KG_CENTS,
  deliveryFeeCents,
  LOCAL_DELIVERY_FEE_CENTS,
  materialRatePerKgCents,
  MAX_COLORS,
  MIN_COLORS,
  quotePrice,
  type DeliveryMethod,
} from "~/domain/pricing";

// The public calculator's ranges, its shipping figure and default material.
export const WEIGHT = { min: 1, max: 1000, sliderStep: 5, fallback: 100 };
export const HOURS = { min: 0.5, max: 48, step: 0.5, fallback: 4 };
export const SHIPPING_ESTIMATE_CENTS = 599;
/** "platform": the rate used before a printer is chosen. */
export const MATERIAL_CHOICES = [...UPLOAD_MATERIALS, "platform"] as const;
export type MaterialChoice = (typeof MATERIAL_CHOICES)[number];
export const DELIVERY_CHOICES: { id: DeliveryMethod; label: string }[] = [
  { id: "pickup", label: "Pickup (free)" },
  { id: "delivery", label: `Local delivery (${formatCents(LOCAL_DELIVERY_FEE_CENTS)})` },
  { id: "shipping", label: `Shipping (about ${formatCents(SHIPPING_ESTIMATE_CENTS)})` },
];

export interface CalculatorInput {
  weight: number;
  colors: number;
  hours: number;
  material: MaterialChoice;
  delivery: DeliveryMethod;
}
export type RawInput = Record<keyof CalculatorInput, string>;
export type InputErrors = Partial<Record<keyof CalculatorInput, string>>;

export function rateFor(material: MaterialChoice) {
  return material === "platform" ? DEFAULT_RATE_PER_KG_CENTS : materialRatePerKgCents(material);
}

/** Reads the calculator's fields; a value out of range gets a message and the field's default. */
export function readInput(raw: Partial<RawInput>): { input: CalculatorInput; errors: InputErrors } {
  const errors: InputErrors = {};
  const number = (value: string | undefined) => (value === undefined || value.trim() === "" ? NaN : Number(value));

  let weight = number(raw.weight);
  if (raw.weight === undefined) weight = WEIGHT.fallback;
  else if (!(weight >= WEIGHT.min && weight <= WEIGHT.max)) {
    errors.weight = `Weight must be between ${WEIGHT.min} and ${WEIGHT.max} g`;
    weight = WEIGHT.fallback;
  }
  let colors = number(raw.colors);
  if (raw.colors === undefined) colors = MIN_COLORS;
  else if (!(Number.isInteger(colors) && colors >= MIN_COLORS && colors <= MAX_COLORS)) {
    errors.colors = `Colours must be a whole number from ${MIN_COLORS} to ${MAX_COLORS}`;
    colors = MIN_COLORS;
  }
  let hours = number(raw.hours);
  if (raw.hours === undefined) hours = HOURS.fallback;
  else if (!(hours >= HOURS.min && hours <= HOURS.max)) {
    errors.hours = `Print time must be between ${HOURS.min} and ${HOURS.max} hours`;
    hours = HOURS.fallback;
  }
  const material = (MATERIAL_CHOICES as readonly string[]).includes(raw.material ?? "")
    ? (raw.material as MaterialChoice)
    : "PLA";
  const delivery = DELIVERY_CHOICES.some((d) => d.id === raw.delivery) ? (raw.delivery as DeliveryMethod) : "pickup";
  return { input: { weight, colors, hours, material, delivery }, errors };
}

/** The one engine, plus delivery as the order will add it. */
export function calculate(input: CalculatorInput) {
  const ratePerKgCents = rateFor(input.material);
  const printTimeMinutes = Math.round(input.hours * 60);
  const quote = quotePrice({ weightGrams: input.weight, colors: input.colors, printTimeMinutes, ratePerKgCents });
  const deliveryCents =
    input.delivery === "shipping" ? deliveryFeeCents("shipping", SHIPPING_ESTIMATE_CENTS) : deliveryFeeCents(input.delivery);
  return { quote, ratePerKgCents, printTimeMinutes, deliveryCents, totalCents: quote.customerPays + deliveryCents };
}

export function queryOf(input: CalculatorInput) {
  return new URLSearchParams({
    weight: String(input.weight),
    colors: String(input.colors),
    hours: String(input.hours),
    material: input.material,
    delivery: input.delivery,
  }).toString();
}

/** Print time in the calculator's steps of half an hour, rounded up. */
export function hoursOf(minutes: number): number {
  return Math.max(HOURS.min, Math.ceil(minutes / 60 / HOURS.step) * HOURS.step);
}

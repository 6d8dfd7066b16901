// A delivery address (docs/decisions/037-delivery-addresses-and-mail.md): who receives a shipped or
// locally delivered order and where. The ZIP-in-state check needs the gazetteer, so it is a service's.
import { z } from "zod";
import { CONTACT_PRINTER_STATUSES, type JobStatus } from "./job-status";
import { typedText, typedTextFault } from "./one-line";
import { ZIP_PATTERN } from "./shipping";

/** Two-letter USPS codes of the states (with DC and Puerto Rico) and their names. */
export const US_STATES = {
  AL: "Alabama",
  AK: "Alaska",
  AZ: "Arizona",
  AR: "Arkansas",
  CA: "California",
  CO: "Colorado",
  CT: "Connecticut",
  DE: "Delaware",
  DC: "District of Columbia",
  FL: "Florida",
  GA: "Georgia",
  HI: "Hawaii",
  ID: "Idaho",
  IL: "Illinois",
  IN: "Indiana",
  IA: "Iowa",
  KS: "Kansas",
  KY: "Kentucky",
  LA: "Louisiana",
  ME: "Maine",
  MD: "Maryland",
  MA: "Massachusetts",
  MI: "Michigan",
  MN: "Minnesota",
  MS: "Mississippi",
  MO: "Missouri",
  MT: "Montana",
  NE: "Nebraska",
  NV: "Nevada",
  NH: "New Hampshire",
  NJ: "New Jersey",
  NM: "New Mexico",
  NY: "New York",
  NC: "North Carolina",
  ND: "North Dakota",
  OH: "Ohio",
  OK: "Oklahoma",
  OR: "Oregon",
  PA: "Pennsylvania",
  RI: "Rhode Island",
  SC: "South Carolina",
  SD: "South Dakota",
  TN: "Tennessee",
  TX: "Texas",
  UT: "Utah",
  VT: "Vermont",
  VA: "Virginia",
  WA: "Washington",
  WV: "West Virginia",
  WI: "Wisconsin",
  WY: "Wyoming",
  PR: "Puerto Rico",
} as const satisfies Record<string, string>;
export type StateCode = keyof typeof US_STATES;
export const STATE_CODES = Object.keys(US_STATES) as StateCode[];

export function isStateCode(value: unknown): value is StateCode {
  return typeof value === "string" && Object.hasOwn(US_STATES, value);
}

export const ADDRESS_MESSAGES = {
  name: "Enter the recipient's name.",
  line1: "Enter the street address.",
  city: "Enter the city.",
  state: "Choose the state (two letters, e.g. CO).",
  zip: "Enter a 5-digit ZIP code.",
  phone: "Enter a phone number of 10 digits (or leave it empty).",
  needed: "Enter the delivery address.",
} as const;

/** The typed fields' names in their messages; they follow the person-name rule (one line, something visible). */
const TYPED_FIELD_LABELS = {
  name: "The recipient's name",
  line1: "The street address",
  line2: "Line 2 of the address",
  city: "The city",
  phone: "The phone number",
} as const;
type TypedAddressField = keyof typeof TYPED_FIELD_LABELS;

/** The refusals of a typed field: a line break or control character in it, or nothing visible. */
export function addressTextMessages(field: TypedAddressField) {
  const label = TYPED_FIELD_LABELS[field];
  return {
    notOneLine: `${label} can't contain line breaks, tabs or other control characters.`,
    invisible: `${label} has no visible text (only spaces or invisible characters).`,
  };
}

/** The ZIP-in-state refusal: the gazetteer places this ZIP in another state (or nowhere). */
export function zipNotInStateMessage(zip: string, state: string): string {
  return `ZIP code ${zip} is not in ${state}.`;
}

const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);
const required = (field: TypedAddressField, message: string, max: number) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ required_error: message, invalid_type_error: message })
      .trim()
      .min(1, message)
      .max(max, `At most ${max} characters.`)
      .superRefine(typedText(addressTextMessages(field))),
  );

/** Phone numbers are US ones: 10 digits, an optional leading 1; kept as typed, with its digits checked. */
const phoneDigits = (value: string) => value.replace(/\D/g, "").replace(/^1(?=\d{10}$)/, "");

export const DeliveryAddressSchema = z.object({
  name: required("name", ADDRESS_MESSAGES.name, 100),
  line1: required("line1", ADDRESS_MESSAGES.line1, 100),
  line2: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .max(100, "At most 100 characters.")
      .superRefine(typedText(addressTextMessages("line2")))
      .optional(),
  ),
  city: required("city", ADDRESS_MESSAGES.city, 60),
  state: z.preprocess(
    (value) => (typeof value === "string" ? value.trim().toUpperCase() : value),
    z.string({ required_error: ADDRESS_MESSAGES.state }).refine((value): boolean => isStateCode(value), ADDRESS_MESSAGES.state),
  ),
  zip: z.preprocess(
    (value) => (typeof value === "string" ? value.trim() : value),
    z.string({ required_error: ADDRESS_MESSAGES.zip }).regex(ZIP_PATTERN, ADDRESS_MESSAGES.zip),
  ),
  phone: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .max(25, ADDRESS_MESSAGES.phone)
      .superRefine(typedText(addressTextMessages("phone")))
      // a phone with a line break or control character has its one message above
      .refine(
        (value) => typedTextFault(value) !== null || (/^[\d\p{Zs}()+.-]+$/u.test(value) && phoneDigits(value).length === 10),
        ADDRESS_MESSAGES.phone,
      )
      .optional(),
  ),
});
export type DeliveryAddress = z.infer<typeof DeliveryAddressSchema>;

/** The address's fields as the forms name them (the /submit-print form nests them under `deliveryAddress.`). */
export const ADDRESS_FIELDS = ["name", "line1", "line2", "city", "state", "zip", "phone"] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];

/** The field messages of a refused address, keyed by field. */
export type AddressErrors = Partial<Record<AddressField, string[]>>;

/** Schema check only; the ZIP-in-state check is the gazetteer's (services/addresses.server.ts). */
export function parseAddressShape(value: unknown): { address: DeliveryAddress } | { errors: AddressErrors } {
  const parsed = DeliveryAddressSchema.safeParse(value ?? {});
  if (parsed.success) return { address: parsed.data };
  const errors: AddressErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as AddressField | undefined;
    const key = field && (ADDRESS_FIELDS as readonly string[]).includes(field) ? field : "name";
    (errors[key] ??= []).push(issue.message);
  }
  return { errors };
}

/** An address as the lines of a label: name, street, "City, ST 12345", and the phone when given. */
export function addressLines(address: DeliveryAddress, options: { phone?: boolean } = {}): string[] {
  return [
    address.name,
    address.line1,
    address.line2,
    `${address.city}, ${address.state} ${address.zip}`,
    options.phone && address.phone ? `Phone: ${address.phone}` : undefined,
  ].filter((line): line is string => Boolean(line));
}

/**
 * Who sees an order's address (and the phone in it): its customer always; the printer's owner only
 * while the paid order is theirs to fulfil (from payment until it leaves); nobody else ever.
 */
export function seesDeliveryAddress(viewer: "customer" | "owner", status: JobStatus): boolean {
  return viewer === "customer" || CONTACT_PRINTER_STATUSES.includes(status);
}

/** An address field's name in an order form: `deliveryAddress.<field>`, its ZIP the form's `deliveryZip`. */
export function orderFormFieldName(field: AddressField): string {
  return field === "zip" ? "deliveryZip" : `deliveryAddress.${field}`;
}

/** An order form's refused fields (conform's error record) as the address's errors, field by field. */
export function addressErrorsOf(formErrors: Record<string, string[] | null | undefined>): AddressErrors {
  return Object.fromEntries(
    ADDRESS_FIELDS.flatMap((field) => {
      const errors = formErrors[orderFormFieldName(field)];
      return errors?.length ? [[field, errors]] : [];
    }),
  );
}

/** The address fields of an order form (names from orderFormFieldName). */
export function addressFromForm(get: (name: string) => unknown): Record<AddressField, string | undefined> {
  const text = (name: string) => {
    const value = get(name);
    return typeof value === "string" ? value.slice(0, 200) : undefined;
  };
  return Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, text(orderFormFieldName(field))])) as Record<
    AddressField,
    string | undefined
  >;
}

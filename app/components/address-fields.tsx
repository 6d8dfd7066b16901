// The delivery address's inputs, shared by /submit-print (names under `deliveryAddress.`, its ZIP the
// form's `deliveryZip`) and the address book on /profile (plain names).
import { STATE_CODES, US_STATES, type AddressErrors } from "~/domain/address";
import { ErrorList, Field } from "./forms";

export interface AddressValues {
  name: string;
  line1: string;
  line2: string;
  city: string;
  state: string;
  phone: string;
}

/** Address values for the inputs, blanks for what is missing. */
export function addressValues(typed: Partial<Record<string, string | null | undefined>>): AddressValues {
  const text = (value: string | null | undefined) => value ?? "";
  return {
    name: text(typed.name),
    line1: text(typed.line1),
    line2: text(typed.line2),
    city: text(typed.city),
    state: text(typed.state),
    phone: text(typed.phone),
  };
}

export function AddressFields({
  address,
  zip,
  errors,
  zipInvalid,
  saved,
  filledFrom,
  plainNames = false,
  idPrefix = "address",
}: {
  address: AddressValues;
  zip: string;
  errors?: AddressErrors;
  zipInvalid?: boolean;
  /** the customer's saved addresses to choose from ("Update summary" fills them in) */
  saved?: { id: number; label: string }[];
  filledFrom?: number | string | null;
  plainNames?: boolean;
  idPrefix?: string;
}) {
  const name = (field: string) => (plainNames ? field : `deliveryAddress.${field}`);
  const id = (field: string) => `${idPrefix}-${field}`;
  const zipErrors = errors?.zip;
  return (
    <fieldset className="grid gap-3 sm:grid-cols-2">
      <legend className="label">Delivery address</legend>
      {saved?.length ? (
        <div className="sm:col-span-2">
          <label className="label" htmlFor={id("saved")}>
            Saved addresses
          </label>
          <select id={id("saved")} name="savedAddressId" defaultValue={filledFrom ?? ""} className="input">
            <option value="">Choose a saved address</option>
            {saved.map((a) => (
              <option key={a.id} value={a.id}>
                {a.label}
              </option>
            ))}
          </select>
          {filledFrom ? <input type="hidden" name="filledFrom" value={filledFrom} /> : null}
        </div>
      ) : null}
      <Field
        className="sm:col-span-2"
        labelProps={{ children: "Recipient name" }}
        inputProps={{ id: id("name"), name: name("name"), defaultValue: address.name, autoComplete: "name", maxLength: 100 }}
        errors={errors?.name}
      />
      <Field
        className="sm:col-span-2"
        labelProps={{ children: "Street address" }}
        inputProps={{
          id: id("line1"),
          name: name("line1"),
          defaultValue: address.line1,
          autoComplete: "address-line1",
          maxLength: 100,
        }}
        errors={errors?.line1}
      />
      <Field
        className="sm:col-span-2"
        labelProps={{ children: "Apartment, suite, unit (optional)" }}
        inputProps={{
          id: id("line2"),
          name: name("line2"),
          defaultValue: address.line2,
          autoComplete: "address-line2",
          maxLength: 100,
        }}
        errors={errors?.line2}
      />
      <Field
        labelProps={{ children: "City" }}
        inputProps={{
          id: id("city"),
          name: name("city"),
          defaultValue: address.city,
          autoComplete: "address-level2",
          maxLength: 60,
        }}
        errors={errors?.city}
      />
      <div>
        <label className="label" htmlFor={id("state")}>
          State
        </label>
        <select
          id={id("state")}
          name={name("state")}
          defaultValue={address.state}
          className="input"
          autoComplete="address-level1"
          aria-invalid={errors?.state ? true : undefined}
          aria-describedby={errors?.state ? `${id("state")}-error` : undefined}
        >
          <option value="">Choose a state</option>
          {STATE_CODES.map((code) => (
            <option key={code} value={code}>
              {code} ({US_STATES[code]})
            </option>
          ))}
        </select>
        <ErrorList id={`${id("state")}-error`} errors={errors?.state} />
      </div>
      <Field
        labelProps={{ children: plainNames ? "ZIP code" : "Delivery ZIP code" }}
        inputProps={{
          id: plainNames ? id("zip") : "deliveryZip",
          name: plainNames ? "zip" : "deliveryZip",
          defaultValue: zip,
          inputMode: "numeric",
          pattern: "\\d{5}",
          maxLength: 5,
          autoComplete: "postal-code",
          "aria-invalid": zipInvalid || zipErrors ? true : undefined,
        }}
        errors={zipErrors}
      />
      <Field
        labelProps={{ children: "Phone for the carrier (optional)" }}
        inputProps={{
          id: id("phone"),
          name: name("phone"),
          type: "tel",
          defaultValue: address.phone,
          autoComplete: "tel",
          maxLength: 25,
        }}
        errors={errors?.phone}
      />
    </fieldset>
  );
}

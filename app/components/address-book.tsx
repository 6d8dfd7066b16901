// The address book on /profile: each saved address with Edit, Make default and Delete, and a form to
// add one. Every button is a plain form post with an intent; editing opens in a <details>.
import { Form } from "./form";
import type { AddressErrors } from "~/domain/address";
import { resultForIntent } from "~/utils/misc";
import { AddressFields, type AddressValues } from "./address-fields";

export interface SavedAddress extends AddressValues {
  id: number;
  zip: string;
  isDefault: boolean;
  lines: string[];
}

/** A refused save (conform's result): what was typed, with its intent and addressId, and the field messages. */
export interface AddressSaveResult {
  initialValue?: Record<string, unknown> | null;
  error?: Record<string, string[] | null> | null;
}

/** The refused save that belongs to this form (the address it edits, or none for a new one). */
const refusalFor = (lastResult: AddressSaveResult | undefined, address?: SavedAddress) =>
  resultForIntent(lastResult, "address-save", { addressId: address?.id ?? "" });

function AddressForm({
  formId,
  address,
  lastResult,
  submitLabel,
}: {
  formId: string;
  address?: SavedAddress;
  lastResult: AddressSaveResult | undefined;
  submitLabel: string;
}) {
  const mine = refusalFor(lastResult, address);
  const value = (field: keyof AddressValues | "zip") => {
    const typed = mine?.initialValue?.[field];
    return typeof typed === "string" ? typed : (address?.[field] ?? "");
  };
  return (
    <Form method="post" action="/profile" className="mt-3 space-y-3" id={formId}>
      {address ? <input type="hidden" name="addressId" value={address.id} /> : null}
      <AddressFields
        plainNames
        idPrefix={formId}
        address={{
          name: value("name"),
          line1: value("line1"),
          line2: value("line2"),
          city: value("city"),
          state: value("state"),
          phone: value("phone"),
        }}
        zip={value("zip")}
        errors={mine?.error as AddressErrors | undefined}
      />
      {address?.isDefault ? null : (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="makeDefault" /> Make this my default address
        </label>
      )}
      <button type="submit" name="intent" value="address-save" className="btn-primary">
        {submitLabel}
      </button>
    </Form>
  );
}

export function AddressBook({ addresses, lastResult }: { addresses: SavedAddress[]; lastResult: AddressSaveResult | undefined }) {
  return (
    <section id="addresses" className="card mt-6 space-y-4 p-6" aria-labelledby="addresses-heading">
      <h2 id="addresses-heading" className="text-lg font-semibold">
        Delivery addresses
      </h2>
      <p className="text-sm text-slate-600">
        The default address fills in the delivery address when you order. An order keeps the address it was placed with.
      </p>
      {addresses.length === 0 ? <p className="text-sm text-slate-500">No saved addresses yet.</p> : null}
      <ul className="space-y-3">
        {addresses.map((a) => (
          <li key={a.id} className="rounded-md border border-slate-200 p-3" data-testid="saved-address">
            <div className="flex flex-wrap items-start justify-between gap-3">
              <address className="text-sm not-italic">
                {a.lines.map((line) => (
                  <span key={line} className="block">
                    {line}
                  </span>
                ))}
              </address>
              {a.isDefault ? <span className="badge bg-brand-100 text-brand-700">Default</span> : null}
            </div>
            <div className="mt-2 flex flex-wrap gap-2">
              {a.isDefault ? null : (
                <Form method="post" action="/profile">
                  <input type="hidden" name="addressId" value={a.id} />
                  <button type="submit" name="intent" value="address-default" className="btn-secondary">
                    Make default
                  </button>
                </Form>
              )}
              <Form method="post" action="/profile">
                <input type="hidden" name="addressId" value={a.id} />
                <button type="submit" name="intent" value="address-delete" className="btn-secondary">
                  Delete
                </button>
              </Form>
            </div>
            <details open={Boolean(refusalFor(lastResult, a))} className="mt-2">
              <summary className="cursor-pointer text-sm font-medium text-brand-700">Edit</summary>
              <AddressForm formId={`address-${a.id}`} address={a} lastResult={lastResult} submitLabel="Save Address" />
            </details>
          </li>
        ))}
      </ul>
      <details open={addresses.length === 0 || Boolean(refusalFor(lastResult))}>
        <summary className="cursor-pointer font-medium text-brand-700">Add an address</summary>
        <AddressForm formId="address-new" lastResult={lastResult} submitLabel="Add Address" />
      </details>
    </section>
  );
}

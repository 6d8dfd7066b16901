// The printer dashboard's quick add-printer form: a plain <details> disclosure posting to the
// dashboard, so it opens and submits without JavaScript. The server validates (its schema is in
// app/domain/printer-form.ts) and answers with conform's reply; no form library or schema comes to
// the browser, which keeps the dashboard within its script budget (decision 005). The form as it first shows,
// the same for every owner, is drawn once per process on the server (components/fixed-markup.tsx).
import type { SubmissionResult } from "@conform-to/react";
import { Form } from "./form";
import { Link } from "./link";
import { useState, type InputHTMLAttributes } from "react";
import { PRINTER_MATERIALS } from "~/domain/materials";
import { pricePerGramFromSpool, SPOOL_WEIGHTS_GRAMS } from "~/domain/pricing";
import { findPrinterModel, PRESET_MODEL_NAMES } from "~/domain/printer-models";
import { UsuallyFixed } from "./fixed-markup";
import { ErrorList } from "./forms";
import { ModelSelect } from "./printer-form";
import { useIsPending } from "~/utils/misc-react";

export const QUICK_ADD_INTENT = "quick-add-printer";
const FORM_ID = "quick-add-printer";

type Reply = SubmissionResult<string[]> | null | undefined;

/** The posted values and messages of a refused post, read from conform's reply. */
function replied(reply: Reply) {
  const values = (reply?.initialValue ?? {}) as Record<string, unknown>;
  const text = (name: string) => (typeof values[name] === "string" ? (values[name] as string) : "");
  const list = (name: string) => [values[name] ?? []].flat().map(String);
  const errors = (...names: string[]) => names.map((n) => reply?.error?.[n]).find((e) => e?.length) ?? undefined;
  return { text, list, errors };
}

/** A labelled text input; `describedBy` is its message's id while the message shows. */
function TextInput({
  name,
  label,
  describedBy,
  className,
  ...rest
}: { name: string; label: string; describedBy?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = `${FORM_ID}-${name}`;
  return (
    <div className={className}>
      <label className="label font-normal" htmlFor={id}>
        {label}
      </label>
      <input id={id} name={name} type="text" className="input" aria-describedby={describedBy} {...rest} />
    </div>
  );
}

/** The form as it first shows, before a post: the same for every owner, drawn once per process (entry.server.tsx). */
const UNTOUCHED = "quick-add-printer-untouched";
export const QUICK_ADD_FIXED_PARTS = { [UNTOUCHED]: () => <QuickAddForm submitting={false} /> };

export function QuickAddPrinter({ lastResult }: { lastResult?: Reply }) {
  const submitting = useIsPending({ state: "submitting", intent: QUICK_ADD_INTENT });
  return (
    <UsuallyFixed id={UNTOUCHED} usual={!lastResult && !submitting}>
      <QuickAddForm lastResult={lastResult} submitting={submitting} />
    </UsuallyFixed>
  );
}

/** The form itself: what it draws comes from its props and its own state only, so it can be drawn once (UsuallyFixed). */
function QuickAddForm({ lastResult, submitting }: { lastResult?: Reply; submitting: boolean }) {
  const { text, list, errors } = replied(lastResult);
  const [materials, setMaterials] = useState<string[]>(() => list("materials"));
  const [cost, setCost] = useState(() => text("filamentCost"));
  const [grams, setGrams] = useState(() => text("spoolWeight"));
  const price = cost && grams ? pricePerGramFromSpool(cost, Number(grams)) : null;
  const message = {
    model: errors("model"),
    materials: errors("materials"),
    filament: errors("filamentCost", "spoolWeight"),
    address: errors("street", "city", "state", "zip"),
    form: lastResult?.error?.[""],
  };
  const id = (part: string) => `${FORM_ID}-${part}-error`;
  const describedBy = (part: keyof typeof message) => (message[part] ? id(part) : undefined);

  function chooseModel(name: string) {
    // a known model ticks its usual materials, as on the full form
    const model = findPrinterModel(name);
    if (model?.buildVolume) setMaterials([...model.defaultMaterials]);
  }
  const toggle = (material: string, on: boolean) =>
    setMaterials((current) => (on ? [...current, material] : current.filter((m) => m !== material)));

  return (
    <details className="card mt-4 p-4" open={Boolean(lastResult)} data-testid="quick-add-printer">
      <summary className="cursor-pointer font-medium text-brand-700">Quick Add Printer</summary>
      <p className="mt-2 text-sm text-slate-600">
        A known model, the filament you print with and where the printer is. For a custom model, a photo or a description, use the{" "}
        <Link to="/add-printer" className="text-brand-700 underline">
          full form
        </Link>
        .
      </p>
      <Form method="post" action="/printer-dashboard" id={FORM_ID} noValidate className="mt-4 space-y-4">
        <input type="hidden" name="intent" value={QUICK_ADD_INTENT} />
        <ErrorList id={id("form")} errors={message.form} />
        <ModelSelect
          selectProps={{
            id: `${FORM_ID}-model`,
            name: "model",
            defaultValue: text("model"),
          }}
          errors={message.model}
          options={PRESET_MODEL_NAMES}
          onChoose={chooseModel}
        />

        <fieldset aria-describedby={describedBy("materials")}>
          <legend className="label">Supported materials</legend>
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
            {PRINTER_MATERIALS.map((material) => (
              <label key={material} className="flex items-center gap-2 text-sm text-slate-700">
                <input
                  type="checkbox"
                  name="materials"
                  value={material}
                  checked={materials.includes(material)}
                  onChange={(e) => toggle(material, e.currentTarget.checked)}
                  className="h-4 w-4 rounded border-slate-300"
                />
                {material}
              </label>
            ))}
          </div>
          <ErrorList id={id("materials")} errors={message.materials} />
        </fieldset>

        <fieldset>
          <legend className="label">Filament</legend>
          <div className="grid gap-3 sm:grid-cols-2">
            <TextInput
              name="filamentCost"
              label="Spool cost (USD)"
              describedBy={describedBy("filament")}
              inputMode="decimal"
              placeholder="24.99"
              defaultValue={cost}
              onInput={(e) => setCost(e.currentTarget.value)}
            />
            <div>
              <label className="label font-normal" htmlFor={`${FORM_ID}-spoolWeight`}>
                Spool weight
              </label>
              <select
                id={`${FORM_ID}-spoolWeight`}
                name="spoolWeight"
                defaultValue={grams}
                aria-describedby={describedBy("filament")}
                className="input"
                onChange={(e) => setGrams(e.currentTarget.value)}
              >
                <option value="">Select a spool weight</option>
                {SPOOL_WEIGHTS_GRAMS.map((g) => (
                  <option key={g} value={g}>
                    {g} g
                  </option>
                ))}
              </select>
            </div>
          </div>
          <ErrorList id={id("filament")} errors={message.filament} />
          <p className="text-sm text-slate-600" data-testid="quick-price-per-gram">
            {price ? `Price per gram: $${price}` : "Your price per gram is the spool's cost divided by its weight."}
          </p>
        </fieldset>

        <fieldset>
          <legend className="label">Address</legend>
          <div className="grid gap-3 sm:grid-cols-6">
            <TextInput
              name="street"
              label="Street"
              describedBy={describedBy("address")}
              defaultValue={text("street")}
              autoComplete="street-address"
              className="sm:col-span-6"
            />
            <TextInput
              name="city"
              label="City"
              describedBy={describedBy("address")}
              defaultValue={text("city")}
              autoComplete="address-level2"
              className="sm:col-span-3"
            />
            <TextInput
              name="state"
              label="State"
              describedBy={describedBy("address")}
              defaultValue={text("state")}
              autoComplete="address-level1"
              maxLength={2}
              placeholder="CO"
              className="sm:col-span-1 [&_input]:uppercase"
            />
            <TextInput
              name="zip"
              label="ZIP code"
              describedBy={describedBy("address")}
              defaultValue={text("zip")}
              autoComplete="postal-code"
              inputMode="numeric"
              maxLength={5}
              className="sm:col-span-2"
            />
          </div>
          <ErrorList id={id("address")} errors={message.address} />
        </fieldset>

        <button type="submit" className="btn-primary" disabled={submitting}>
          {submitting ? "Adding Printer..." : "Add Printer to Marketplace"}
        </button>
      </Form>
    </details>
  );
}

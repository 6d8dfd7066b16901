// The printer forms' shared fields; their rules live in app/domain/printer-form.ts.
import { getCollectionProps, type FieldMetadata } from "@conform-to/react";
import type { SelectHTMLAttributes } from "react";
import { PRINTER_MATERIALS } from "~/domain/materials";

export function FieldError({ id, errors }: { id?: string; errors?: string[] | null }) {
  return (
    <p id={id} className="field-error" aria-live="polite">
      {errors?.[0] ?? ""}
    </p>
  );
}

/** One checkbox per printer material; conform keeps them in step with form.update(). */
export function MaterialCheckboxes({
  field,
  onChange,
}: {
  field: FieldMetadata<string[] | undefined>;
  onChange?: (event: React.ChangeEvent<HTMLInputElement>) => void;
}) {
  return (
    <fieldset>
      <legend className="label">Supported materials</legend>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
        {getCollectionProps(field, { type: "checkbox", options: [...PRINTER_MATERIALS] }).map((props) => {
          const { key, ...rest } = props;
          return (
            <label key={key} className="flex items-center gap-2 text-sm text-slate-700">
              <input {...rest} className="h-4 w-4 rounded border-slate-300" onChange={onChange} />
              {props.value}
            </label>
          );
        })}
      </div>
      <FieldError id={field.errorId} errors={field.errors} />
    </fieldset>
  );
}

/** The printer model choice; `onChoose` applies the chosen model's preset. */
export function ModelSelect({
  selectProps,
  errorId,
  errors,
  options,
  onChoose,
}: {
  selectProps: SelectHTMLAttributes<HTMLSelectElement> & { id: string };
  errorId: string;
  errors?: string[] | null;
  options: readonly string[];
  onChoose: (name: string) => void;
}) {
  return (
    <div>
      <label className="label" htmlFor={selectProps.id}>
        Printer model
      </label>
      <select {...selectProps} className="input" onChange={(e) => onChoose(e.currentTarget.value)}>
        <option value="">Select a printer model</option>
        {options.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
      <FieldError id={errorId} errors={errors} />
    </div>
  );
}

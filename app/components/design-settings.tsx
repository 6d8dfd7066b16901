// The Print Settings fieldset of the upload page; its schema, options and rules live in app/domain/design-settings.ts.
import { getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import { MAX_SCALE_PERCENT, MIN_SCALE_PERCENT, UNIT_OPTIONS } from "~/domain/design-scale";
import {
  DELIVERY_OPTIONS,
  INFILL_OPTIONS,
  LAYER_HEIGHTS,
  qualityForLayerHeight,
  SUPPORT_OPTIONS,
  type DesignSettingsInput,
} from "~/domain/design-settings";
import { COLOR_NAMES, UPLOAD_MATERIALS } from "~/domain/materials";
import { MAX_COLORS, MAX_QUANTITY, MIN_QUANTITY } from "~/domain/pricing";

type SettingsFields = {
  [K in keyof DesignSettingsInput]-?: FieldMetadata<DesignSettingsInput[K], DesignSettingsInput, string[]>;
};

const selectClass = "input";

/** The Print Settings fieldset; plain selects so it posts the same with or without JavaScript. */
export function DesignSettingsFields({ fields, disabled }: { fields: SettingsFields; disabled?: boolean }) {
  const error = (name: keyof SettingsFields) => fields[name].errors?.[0];
  return (
    <fieldset className="grid gap-4 sm:grid-cols-2" disabled={disabled}>
      <legend className="sr-only">Print Settings</legend>
      <div>
        <label className="label" htmlFor={fields.material.id}>
          Material
        </label>
        <select className={selectClass} {...getSelectProps(fields.material)}>
          {UPLOAD_MATERIALS.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
        <p className="field-error">{error("material")}</p>
      </div>
      <div>
        <label className="label" htmlFor={fields.filamentColor.id}>
          Color
        </label>
        <select className={selectClass} {...getSelectProps(fields.filamentColor)}>
          {COLOR_NAMES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
        <p className="field-error">{error("filamentColor")}</p>
      </div>
      <div>
        <label className="label" htmlFor={fields.layerHeight.id}>
          Layer height
        </label>
        <select className={selectClass} {...getSelectProps(fields.layerHeight)}>
          {LAYER_HEIGHTS.map((h) => (
            <option key={h} value={String(h)}>
              {h} mm ({qualityForLayerHeight(h)})
            </option>
          ))}
        </select>
        <p className="field-error">{error("layerHeight")}</p>
      </div>
      <div>
        <label className="label" htmlFor={fields.infill.id}>
          Infill
        </label>
        <select className={selectClass} {...getSelectProps(fields.infill)}>
          {INFILL_OPTIONS.map((i) => (
            <option key={i} value={String(i)}>
              {i}%
            </option>
          ))}
        </select>
        <p className="field-error">{error("infill")}</p>
      </div>
      <div>
        <label className="label" htmlFor={fields.supports.id}>
          Supports
        </label>
        <select className={selectClass} {...getSelectProps(fields.supports)}>
          {SUPPORT_OPTIONS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
        <p className="field-error">{error("supports")}</p>
      </div>
      <div>
        <label className="label" htmlFor={fields.numberOfColors.id}>
          Colors in the print
        </label>
        <select className={selectClass} {...getSelectProps(fields.numberOfColors)}>
          {Array.from({ length: MAX_COLORS }, (_, k) => k + 1).map((n) => (
            <option key={n} value={String(n)}>
              {n === 1 ? "1 (single colour)" : `${n} colours`}
            </option>
          ))}
        </select>
        <p className="field-error">{error("numberOfColors")}</p>
      </div>
      <div>
        <label className="label" htmlFor={fields.quantity.id}>
          Copies
        </label>
        <input
          className="input"
          {...getInputProps(fields.quantity, { type: "number" })}
          min={MIN_QUANTITY}
          max={MAX_QUANTITY}
          step={1}
        />
        <p className="field-error">{error("quantity")}</p>
      </div>
      <div>
        <label className="label" htmlFor={fields.units.id}>
          File units
        </label>
        <select className={selectClass} {...getSelectProps(fields.units)} aria-describedby={`${fields.units.id}-help`}>
          {UNIT_OPTIONS.map((u) => (
            <option key={u.value} value={u.value}>
              {u.label}
            </option>
          ))}
        </select>
        <p id={`${fields.units.id}-help`} className="text-xs text-slate-500">
          The unit the file was drawn in; a 3MF file names its own.
        </p>
        <p className="field-error">{error("units")}</p>
      </div>
      <div>
        <label className="label" htmlFor={fields.scalePercent.id}>
          Scale (%)
        </label>
        <input
          className="input"
          {...getInputProps(fields.scalePercent, { type: "number" })}
          min={MIN_SCALE_PERCENT}
          max={MAX_SCALE_PERCENT}
          step={1}
        />
        <p className="field-error">{error("scalePercent")}</p>
      </div>
      <div>
        <label className="label" htmlFor={fields.deliveryMethod.id}>
          Delivery
        </label>
        <select className={selectClass} {...getSelectProps(fields.deliveryMethod)}>
          {DELIVERY_OPTIONS.map((d) => (
            <option key={d.value} value={d.value}>
              {d.label}
            </option>
          ))}
        </select>
        <p className="field-error">{error("deliveryMethod")}</p>
      </div>
      <div className="sm:col-span-2">
        <label className="label" htmlFor={fields.specialInstructions.id}>
          Special instructions (optional)
        </label>
        <textarea
          className="input min-h-20"
          {...getTextareaProps(fields.specialInstructions)}
          placeholder="Anything the printer owner should know"
        />
        <p className="field-error">{error("specialInstructions")}</p>
      </div>
    </fieldset>
  );
}

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
import { Field, SelectField, TextareaField } from "./forms";

type SettingsFields = {
  [K in keyof DesignSettingsInput]-?: FieldMetadata<DesignSettingsInput[K], DesignSettingsInput, string[]>;
};

/** The Print Settings fieldset; plain selects so it posts the same with or without JavaScript. */
export function DesignSettingsFields({ fields, disabled }: { fields: SettingsFields; disabled?: boolean }) {
  return (
    <fieldset className="grid gap-4 sm:grid-cols-2" disabled={disabled}>
      <legend className="sr-only">Print Settings</legend>
      <SelectField
        labelProps={{ children: "Material" }}
        selectProps={getSelectProps(fields.material)}
        errors={fields.material.errors}
      >
        {UPLOAD_MATERIALS.map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </SelectField>
      <SelectField
        labelProps={{ children: "Color" }}
        selectProps={getSelectProps(fields.filamentColor)}
        errors={fields.filamentColor.errors}
      >
        {COLOR_NAMES.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </SelectField>
      <SelectField
        labelProps={{ children: "Layer height" }}
        selectProps={getSelectProps(fields.layerHeight)}
        errors={fields.layerHeight.errors}
      >
        {LAYER_HEIGHTS.map((h) => (
          <option key={h} value={String(h)}>
            {h} mm ({qualityForLayerHeight(h)})
          </option>
        ))}
      </SelectField>
      <SelectField labelProps={{ children: "Infill" }} selectProps={getSelectProps(fields.infill)} errors={fields.infill.errors}>
        {INFILL_OPTIONS.map((i) => (
          <option key={i} value={String(i)}>
            {i}%
          </option>
        ))}
      </SelectField>
      <SelectField
        labelProps={{ children: "Supports" }}
        selectProps={getSelectProps(fields.supports)}
        errors={fields.supports.errors}
      >
        {SUPPORT_OPTIONS.map((s) => (
          <option key={s.value} value={s.value}>
            {s.label}
          </option>
        ))}
      </SelectField>
      <SelectField
        labelProps={{ children: "Colors in the print" }}
        selectProps={getSelectProps(fields.numberOfColors)}
        errors={fields.numberOfColors.errors}
      >
        {Array.from({ length: MAX_COLORS }, (_, k) => k + 1).map((n) => (
          <option key={n} value={String(n)}>
            {n === 1 ? "1 (single colour)" : `${n} colours`}
          </option>
        ))}
      </SelectField>
      <Field
        labelProps={{ children: "Copies" }}
        inputProps={{ ...getInputProps(fields.quantity, { type: "number" }), min: MIN_QUANTITY, max: MAX_QUANTITY, step: 1 }}
        errors={fields.quantity.errors}
      />
      <SelectField
        labelProps={{ children: "File units" }}
        selectProps={getSelectProps(fields.units)}
        help="The unit the file was drawn in; a 3MF file names its own."
        errors={fields.units.errors}
      >
        {UNIT_OPTIONS.map((u) => (
          <option key={u.value} value={u.value}>
            {u.label}
          </option>
        ))}
      </SelectField>
      <Field
        labelProps={{ children: "Scale (%)" }}
        inputProps={{
          ...getInputProps(fields.scalePercent, { type: "number" }),
          min: MIN_SCALE_PERCENT,
          max: MAX_SCALE_PERCENT,
          step: 1,
        }}
        errors={fields.scalePercent.errors}
      />
      <SelectField
        labelProps={{ children: "Delivery" }}
        selectProps={getSelectProps(fields.deliveryMethod)}
        errors={fields.deliveryMethod.errors}
      >
        {DELIVERY_OPTIONS.map((d) => (
          <option key={d.value} value={d.value}>
            {d.label}
          </option>
        ))}
      </SelectField>
      <TextareaField
        className="sm:col-span-2"
        labelProps={{ children: "Special instructions (optional)" }}
        textareaProps={{
          ...getTextareaProps(fields.specialInstructions),
          className: "input min-h-20",
          placeholder: "Anything the printer owner should know",
        }}
        errors={fields.specialInstructions.errors}
      />
    </fieldset>
  );
}

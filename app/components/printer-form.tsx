// The printer form, once for adding and editing a printer (its rules live in
// app/domain/printer-form.ts), and the pieces the dashboard's quick form shares with it.
import {
  getCollectionProps,
  getFormProps,
  getInputProps,
  getTextareaProps,
  type FieldMetadata,
  type FormMetadata,
} from "@conform-to/react";
import { Form } from "./form";
import { Link } from "./link";
import type { ChangeEvent, ReactNode, SelectHTMLAttributes } from "react";
import { PRINTER_MATERIALS } from "~/domain/materials";
import { CheckboxField, ErrorList, Field, SelectField, TextareaField, type ListOfErrors } from "./forms";

/** One checkbox per printer material; conform keeps them in step with form.update(). */
export function MaterialCheckboxes({
  field,
  onChange,
}: {
  field: FieldMetadata<string[] | undefined>;
  onChange?: (event: ChangeEvent<HTMLInputElement>) => void;
}) {
  return (
    <fieldset aria-describedby={field.errors ? field.errorId : undefined}>
      <legend className="label">Supported materials</legend>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
        {getCollectionProps(field, { type: "checkbox", options: [...PRINTER_MATERIALS] }).map((props) => {
          const { key, ...rest } = props;
          return (
            <CheckboxField
              key={key}
              labelProps={{ children: props.value }}
              inputProps={{ ...rest, "aria-describedby": undefined, onChange }}
            />
          );
        })}
      </div>
      <ErrorList id={field.errorId} errors={field.errors} />
    </fieldset>
  );
}

/** The printer model choice; `onChoose` applies the chosen model's preset. */
export function ModelSelect({
  selectProps,
  errors,
  options,
  onChoose,
}: {
  selectProps: SelectHTMLAttributes<HTMLSelectElement> & { id: string; key?: string };
  errors?: ListOfErrors;
  options: readonly string[];
  onChoose: (name: string) => void;
}) {
  return (
    <SelectField
      labelProps={{ children: "Printer model" }}
      selectProps={{ ...selectProps, onChange: (e) => onChoose(e.currentTarget.value) }}
      errors={errors}
    >
      <option value="">Select a printer model</option>
      {options.map((name) => (
        <option key={name} value={name}>
          {name}
        </option>
      ))}
    </SelectField>
  );
}

// Each page's own words: adding lists a printer, editing saves its settings.
const TEXTS = {
  add: {
    namePlaceholder: "e.g. Garage Prusa",
    descriptionLabel: "Description (optional)",
    descriptionPlaceholder: "What you print best, pickup details...",
    locationPlaceholder: "City, State (e.g. Loveland, CO) or full address",
    pricePlaceholder: "0.12",
    coordinatesSummary: "Exact coordinates (optional)",
    coordinatesHelp: "Without them we place the printer from its location text.",
    latitudePlaceholder: "40.3953",
    longitudePlaceholder: "-105.0717",
    photoLabel: "Photo (optional)",
    photoHelp: "JPEG, PNG or WebP, up to 5 MB.",
    available: "Available for new orders",
    submit: "Add Printer to Marketplace",
    pending: "Adding Printer...",
    cancel: "/dashboard",
  },
  edit: {
    namePlaceholder: undefined,
    descriptionLabel: "Description",
    descriptionPlaceholder: undefined,
    locationPlaceholder: undefined,
    pricePlaceholder: undefined,
    coordinatesSummary: "Exact coordinates",
    coordinatesHelp: "Change the location and we place the printer again from it; type new coordinates to set them yourself.",
    latitudePlaceholder: undefined,
    longitudePlaceholder: undefined,
    photoLabel: "New photo (optional)",
    photoHelp: undefined,
    available: "Available for new orders (online)",
    submit: "Save Settings",
    pending: "Saving...",
    cancel: "/printer-dashboard",
  },
} as const;

type AnyField = FieldMetadata<unknown, Record<string, unknown>, string[]>;

/** The fields both printer forms have, as conform gives them. */
export interface PrinterFormFields {
  name: AnyField;
  description: AnyField;
  location: AnyField;
  pricePerGram: AnyField;
  latitude: AnyField;
  longitude: AnyField;
  materials: FieldMetadata<string[] | undefined>;
  image: AnyField;
  isAvailable: AnyField;
}

/**
 * The add and edit printer form: a multipart post that works without JavaScript. `model` and
 * `buildVolume` hold the add form's model choice; `currentPhoto` and `removePhoto` the edit form's photo.
 */
export function PrinterForm<Schema extends Record<string, unknown>>({
  mode,
  form,
  fields,
  pending,
  canSubmit = true,
  hidden,
  model,
  buildVolume,
  currentPhoto,
  removePhoto,
  onMaterialsChange,
}: {
  mode: keyof typeof TEXTS;
  form: FormMetadata<Schema, string[]>;
  fields: PrinterFormFields;
  pending: boolean;
  canSubmit?: boolean;
  hidden?: ReactNode;
  model?: ReactNode;
  buildVolume?: ReactNode;
  currentPhoto?: ReactNode;
  removePhoto?: ReactNode;
  onMaterialsChange?: (event: ChangeEvent<HTMLInputElement>) => void;
}) {
  const t = TEXTS[mode];
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="card mt-6 space-y-6 p-6">
      {hidden}
      <ErrorList id={form.errorId} errors={form.errors} />
      <Field
        labelProps={{ children: "Printer name" }}
        inputProps={{ ...getInputProps(fields.name, { type: "text" }), placeholder: t.namePlaceholder }}
        errors={fields.name.errors}
      />
      {model}
      <TextareaField
        labelProps={{ children: t.descriptionLabel }}
        textareaProps={{
          ...getTextareaProps(fields.description),
          className: "input min-h-24",
          placeholder: t.descriptionPlaceholder,
        }}
        errors={fields.description.errors}
      />
      {buildVolume}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          labelProps={{ children: "Location" }}
          inputProps={{ ...getInputProps(fields.location, { type: "text" }), placeholder: t.locationPlaceholder }}
          errors={fields.location.errors}
        />
        <Field
          labelProps={{ children: "Price per gram (USD)" }}
          inputProps={{
            ...getInputProps(fields.pricePerGram, { type: "number" }),
            step: "0.01",
            min: "0.01",
            placeholder: t.pricePlaceholder,
          }}
          errors={fields.pricePerGram.errors}
        />
      </div>
      <details
        className="rounded-md border border-slate-200 p-3"
        open={Boolean(fields.latitude.errors || fields.longitude.errors)}
      >
        <summary className="cursor-pointer text-sm font-medium text-slate-700">{t.coordinatesSummary}</summary>
        <p className="mt-2 text-xs text-slate-500">{t.coordinatesHelp}</p>
        <div className="mt-2 grid grid-cols-2 gap-3">
          <Field
            labelProps={{ children: "Latitude" }}
            inputProps={{
              ...getInputProps(fields.latitude, { type: "number" }),
              step: "any",
              placeholder: t.latitudePlaceholder,
            }}
            errors={fields.latitude.errors}
          />
          <Field
            labelProps={{ children: "Longitude" }}
            inputProps={{
              ...getInputProps(fields.longitude, { type: "number" }),
              step: "any",
              placeholder: t.longitudePlaceholder,
            }}
            errors={fields.longitude.errors}
          />
        </div>
      </details>
      <MaterialCheckboxes field={fields.materials} onChange={onMaterialsChange} />
      <div className={currentPhoto ? "flex flex-wrap items-center gap-4" : undefined}>
        {currentPhoto}
        <div className={currentPhoto ? "flex-1" : undefined}>
          <Field
            labelProps={{ children: t.photoLabel }}
            inputProps={{
              ...getInputProps(fields.image, { type: "file" }),
              accept: "image/jpeg,image/png,image/webp",
              className: "block max-w-full text-sm",
            }}
            help={t.photoHelp}
            errors={fields.image.errors}
          />
          {removePhoto}
        </div>
      </div>
      <CheckboxField
        labelProps={{ children: t.available }}
        inputProps={getInputProps(fields.isAvailable, { type: "checkbox" })}
        errors={fields.isAvailable.errors}
      />
      <div className="flex flex-wrap gap-3">
        <button type="submit" className="btn-primary" disabled={pending || !canSubmit}>
          {pending ? t.pending : t.submit}
        </button>
        <Link to={t.cancel} className="btn-secondary">
          Cancel
        </Link>
      </div>
    </Form>
  );
}

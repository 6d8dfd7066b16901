// The form kit every page shares: a labelled control with its errors, and the error list. Field
// errors render only through these (the architecture test checks it), tied to conform's ids.
import {
  useId,
  type InputHTMLAttributes,
  type LabelHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";

export type ListOfErrors = Array<string | null | undefined> | null | undefined;

type LabelProps = LabelHTMLAttributes<HTMLLabelElement> & { children: ReactNode };

/** Errors under a field or a form, announced to screen readers through the id the field points at. */
export function ErrorList({ id, errors, className }: { id?: string; errors?: ListOfErrors; className?: string }) {
  const shown = errors?.filter((e): e is string => Boolean(e));
  if (!shown?.length) return null;
  return (
    <ul id={id} className={className ? `field-error ${className}` : "field-error"}>
      {shown.map((e) => (
        <li key={e}>{e}</li>
      ))}
    </ul>
  );
}

/** The id a control uses, the ids of its help and (with errors) its error list (conform's errorId), and what it points at. */
function useErrorIds(givenId: string | undefined, errors: ListOfErrors, help?: ReactNode) {
  const fallbackId = useId();
  const id = givenId ?? fallbackId;
  const errorId = errors?.some(Boolean) ? `${id}-error` : undefined;
  const helpId = help ? `${id}-help` : undefined;
  const describedBy = [helpId, errorId].filter(Boolean).join(" ") || undefined;
  return { id, errorId, helpId, aria: { "aria-invalid": errorId ? true : undefined, "aria-describedby": describedBy } };
}

function Help({ id, children }: { id?: string; children?: ReactNode }) {
  return children ? (
    <p id={id} className="mt-1 text-xs text-slate-500">
      {children}
    </p>
  ) : null;
}

export function Field({
  labelProps,
  inputProps,
  errors,
  help,
  className,
}: {
  labelProps: LabelProps;
  inputProps: InputHTMLAttributes<HTMLInputElement> & { key?: string };
  errors?: ListOfErrors;
  help?: ReactNode;
  className?: string;
}) {
  const { key: _key, ...props } = inputProps;
  const { id, errorId, helpId, aria } = useErrorIds(props.id, errors, help);
  return (
    <div className={className}>
      <label htmlFor={id} className="label" {...labelProps} />
      <input className="input" {...props} id={id} {...aria} />
      <Help id={helpId}>{help}</Help>
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

export function TextareaField({
  labelProps,
  textareaProps,
  errors,
  help,
  className,
}: {
  labelProps: LabelProps;
  textareaProps: TextareaHTMLAttributes<HTMLTextAreaElement> & { key?: string };
  errors?: ListOfErrors;
  help?: ReactNode;
  className?: string;
}) {
  const { key: _key, ...props } = textareaProps;
  const { id, errorId, helpId, aria } = useErrorIds(props.id, errors, help);
  return (
    <div className={className}>
      <label htmlFor={id} className="label" {...labelProps} />
      <textarea className="input" {...props} id={id} {...aria} />
      <Help id={helpId}>{help}</Help>
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

export function SelectField({
  labelProps,
  selectProps,
  errors,
  help,
  className,
  children,
}: {
  labelProps: LabelProps;
  selectProps: SelectHTMLAttributes<HTMLSelectElement> & { key?: string };
  errors?: ListOfErrors;
  help?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  const { key: _key, ...props } = selectProps;
  const { id, errorId, helpId, aria } = useErrorIds(props.id, errors, help);
  return (
    <div className={className}>
      <label htmlFor={id} className="label" {...labelProps} />
      <select className="input" {...props} id={id} {...aria}>
        {children}
      </select>
      <Help id={helpId}>{help}</Help>
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

/** A checkbox with its label beside it (the label wraps the box, so a click on the text ticks it). */
export function CheckboxField({
  labelProps,
  inputProps,
  errors,
  className,
}: {
  labelProps: LabelProps;
  inputProps: Omit<InputHTMLAttributes<HTMLInputElement>, "type"> & { key?: string; type?: "checkbox" };
  errors?: ListOfErrors;
  className?: string;
}) {
  const { key: _key, ...props } = inputProps;
  const { id, errorId, aria } = useErrorIds(props.id, errors);
  const { children, className: labelClassName, ...restLabel } = labelProps;
  return (
    <div className={className}>
      <label htmlFor={id} className={labelClassName ?? "flex items-center gap-2 text-sm text-slate-700"} {...restLabel}>
        <input className="h-4 w-4 rounded border-slate-300" {...props} type="checkbox" id={id} {...aria} />
        {children}
      </label>
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

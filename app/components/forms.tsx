// The form pieces every page shares: a labelled input with its errors, and the error list.
import { useId, type InputHTMLAttributes, type LabelHTMLAttributes, type ReactNode } from "react";

export type ListOfErrors = Array<string | null | undefined> | null | undefined;

/** Errors under a field or a form, announced to screen readers through the id the field points at. */
export function ErrorList({ id, errors }: { id?: string; errors?: ListOfErrors }) {
  const shown = errors?.filter(Boolean);
  if (!shown?.length) return null;
  return (
    <ul id={id} className="field-error">
      {shown.map((e) => (
        <li key={e}>{e}</li>
      ))}
    </ul>
  );
}

export function Field({
  labelProps,
  inputProps,
  errors,
  help,
  className,
}: {
  labelProps: LabelHTMLAttributes<HTMLLabelElement> & { children: ReactNode };
  inputProps: InputHTMLAttributes<HTMLInputElement>;
  errors?: ListOfErrors;
  help?: ReactNode;
  className?: string;
}) {
  const fallbackId = useId();
  const id = inputProps.id ?? fallbackId;
  const errorId = errors?.length ? `${id}-error` : undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="label" {...labelProps} />
      <input id={id} className="input" aria-invalid={errorId ? true : undefined} aria-describedby={errorId} {...inputProps} />
      {help ? <p className="mt-1 text-xs text-slate-500">{help}</p> : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

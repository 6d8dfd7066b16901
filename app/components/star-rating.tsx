// Stars: a read-only display of an average, and a 1-to-5 input made of radio buttons (works without JavaScript).
import { Fragment, useId } from "react";
import { ErrorList, type ListOfErrors } from "./forms";

export function StarRatingDisplay({ value, size = "text-lg" }: { value: number | null; size?: string }) {
  const rounded = value === null ? 0 : Math.round(value * 2) / 2;
  return (
    <span
      className={`inline-flex ${size} leading-none`}
      aria-label={value === null ? "No ratings yet" : `Rated ${value} out of 5`}
      role="img"
    >
      {[1, 2, 3, 4, 5].map((n) => (
        <span key={n} aria-hidden="true" className="relative text-slate-300">
          ★
          {rounded >= n - 0.5 ? (
            <span className="absolute inset-0 overflow-hidden text-amber-400" style={{ width: rounded >= n ? "100%" : "50%" }}>
              ★
            </span>
          ) : null}
        </span>
      ))}
    </span>
  );
}

/** Radios listed 5..1 and shown reversed, so "checked and every later sibling" lights the stars up to the choice. */
export function StarRatingInput({
  name,
  defaultValue,
  onChange,
  legend = "Your rating",
  errorId,
  errors,
}: {
  name: string;
  defaultValue?: number | null;
  onChange?: (value: number) => void;
  legend?: string;
  /** conform's errorId of the rating field */
  errorId: string;
  errors?: ListOfErrors;
}) {
  const id = useId();
  const invalid = Boolean(errors?.some(Boolean));
  return (
    <fieldset className="relative" aria-invalid={invalid ? true : undefined} aria-describedby={invalid ? errorId : undefined}>
      <legend className="label">{legend}</legend>
      <div className="flex flex-row-reverse justify-end gap-1">
        {[5, 4, 3, 2, 1].map((n) => (
          <Fragment key={n}>
            <input
              type="radio"
              id={`${id}-${n}`}
              name={name}
              value={n}
              defaultChecked={defaultValue === n}
              onChange={() => onChange?.(n)}
              className="peer sr-only"
            />
            <label
              htmlFor={`${id}-${n}`}
              className="cursor-pointer text-3xl leading-none text-slate-300 peer-checked:text-amber-400 peer-focus-visible:outline-2 peer-focus-visible:outline-brand-500 hover:text-amber-300"
            >
              <span aria-hidden="true">★</span>
              <span className="sr-only">{n === 1 ? "1 star" : `${n} stars`}</span>
            </label>
          </Fragment>
        ))}
      </div>
      <ErrorList id={errorId} errors={errors} />
    </fieldset>
  );
}

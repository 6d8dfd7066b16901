// The copies of an order on /submit-print: a plain number input the summary's GET form and the order's post both carry.
import { copiesText } from "~/domain/design-scale";
import { MAX_QUANTITY, MIN_QUANTITY } from "~/domain/pricing";
import { ErrorList, type ListOfErrors } from "./forms";

export function CopiesField({ quantity, errors }: { quantity: number; errors?: ListOfErrors }) {
  const error = errors?.some(Boolean);
  return (
    <div className="mt-3">
      <div className="flex items-end gap-3">
        <div>
          <label className="label" htmlFor="quantity">
            Copies
          </label>
          <input
            id="quantity"
            name="quantity"
            type="number"
            min={MIN_QUANTITY}
            max={MAX_QUANTITY}
            step={1}
            defaultValue={quantity}
            className="input w-24"
            data-testid="order-quantity"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "quantity-help quantity-error" : "quantity-help"}
          />
        </div>
        <p id="quantity-help" className="text-xs text-slate-500">
          Weight, time and price are for all {copiesText(quantity)}.
        </p>
      </div>
      <ErrorList id="quantity-error" errors={errors} />
    </div>
  );
}

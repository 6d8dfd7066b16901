// The printer settings page's filament stock: one row per material and colour, each updated or removed by its
// own form, and a form to add a row.
import { Form } from "~/components/form";
import { ErrorList, Field, SelectField } from "~/components/forms";
import { COLOR_NAMES } from "~/domain/materials";

export interface StockRow {
  material: string;
  color: string;
  grams: number;
  inStock: boolean;
}

export function FilamentStock({
  inventory,
  materials,
  reply,
}: {
  inventory: StockRow[];
  materials: string[];
  /** the last inventory action's refusal, for the row it names ("new": the add form) */
  reply: { key: string; errors: string[] } | null;
}) {
  return (
    <section id="inventory" className="card mt-8 p-6" aria-labelledby="inventory-heading">
      <h2 id="inventory-heading" className="text-lg font-semibold">
        Filament Inventory
      </h2>
      <p className="text-sm text-slate-600">
        Customers only find this printer for a colour you have in stock, with at least the design's weight.
      </p>
      {inventory.length === 0 ? (
        <p className="mt-4 text-sm text-slate-500">No filament recorded yet. Add what you have on the shelf below.</p>
      ) : (
        <table className="mt-4 w-full text-sm">
          <thead>
            <tr className="text-left text-slate-500">
              <th className="py-2 pr-3 font-medium">Material</th>
              <th className="py-2 pr-3 font-medium">Colour</th>
              <th className="py-2 pr-3 font-medium">Grams in stock</th>
              <th className="py-2">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {inventory.map((row) => {
              const key = `${row.material}|${row.color}`;
              const formId = `stock-${row.material}-${row.color}`.replace(/\s+/g, "-");
              return (
                <tr key={key} className="border-t border-slate-100" data-testid="stock-row">
                  <td className="py-2 pr-3">{row.material}</td>
                  <td className="py-2 pr-3">{row.color}</td>
                  <td className="py-2 pr-3">
                    <Form method="post" id={formId} className="flex flex-wrap items-center gap-2">
                      <input type="hidden" name="rowKey" value={key} />
                      <input type="hidden" name="material" value={row.material} />
                      <input type="hidden" name="color" value={row.color} />
                      <input
                        type="number"
                        name="grams"
                        defaultValue={row.grams}
                        min={0}
                        step={1}
                        required
                        className="input w-20 sm:w-28"
                        aria-label={`Grams of ${row.color} ${row.material}`}
                      />
                      {row.inStock ? null : <span className="badge bg-red-50 text-red-700">Out of stock</span>}
                    </Form>
                    <ErrorList errors={reply?.key === key ? reply.errors : null} />
                  </td>
                  <td className="py-2">
                    {/* on a phone the two buttons stack, so the table keeps to the screen's width */}
                    <div className="flex flex-col items-end gap-1 sm:flex-row sm:justify-end">
                      <button type="submit" form={formId} name="intent" value="inventory-set" className="btn-secondary">
                        Update
                      </button>
                      <button
                        type="submit"
                        form={formId}
                        name="intent"
                        value="inventory-remove"
                        className="btn-ghost text-red-700"
                      >
                        Remove
                      </button>
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <Form method="post" className="mt-6 grid items-end gap-3 sm:grid-cols-4" aria-label="Add filament">
        <input type="hidden" name="rowKey" value="new" />
        <SelectField
          labelProps={{ children: "Material" }}
          selectProps={{ id: "stock-material", name: "material", required: true, defaultValue: materials[0] }}
        >
          {materials.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </SelectField>
        <SelectField
          labelProps={{ children: "Colour" }}
          selectProps={{ id: "stock-color", name: "color", required: true, defaultValue: "Black" }}
        >
          {COLOR_NAMES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </SelectField>
        <Field
          labelProps={{ children: "Grams in stock" }}
          inputProps={{ id: "stock-grams", name: "grams", type: "number", min: 0, step: 1, required: true, placeholder: "1000" }}
        />
        <button type="submit" name="intent" value="inventory-set" className="btn-primary">
          Add to Inventory
        </button>
        <ErrorList className="sm:col-span-4" errors={reply?.key === "new" ? reply.errors : null} />
      </Form>
    </section>
  );
}

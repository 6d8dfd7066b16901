// The pricing page's examples. The keychain is weighed and timed by the analysis engine at the default
// print settings, as an upload of it would be, so the example costs what such a keychain really costs.
import { analyzeMesh } from "~/domain/mesh";
import { box } from "~/domain/mesh/generate";
import { PRINT_DEFAULTS } from "~/domain/print-defaults";
import { hoursOf, type CalculatorInput } from "./calculator";

/** A keychain-sized tag, in mm. */
export const KEYCHAIN_MM = { x: 50, y: 30, z: 4 } as const;

let examples: { title: string; input: CalculatorInput }[] | undefined;

export function pricingExamples() {
  if (examples) return examples;
  const keychain = analyzeMesh(box(KEYCHAIN_MM.x, KEYCHAIN_MM.y, KEYCHAIN_MM.z));
  examples = [
    {
      title: "Keychain-sized part",
      input: {
        weight: keychain.estimatedWeight,
        colors: 1,
        hours: hoursOf(keychain.estimatedTimeMinutes),
        material: PRINT_DEFAULTS.material,
        delivery: "pickup",
      },
    },
    { title: "Three-colour figurine", input: { weight: 200, colors: 3, hours: 1.5, material: "platform", delivery: "pickup" } },
    { title: "Large PETG part, delivered", input: { weight: 500, colors: 1, hours: 8, material: "PETG", delivery: "delivery" } },
  ];
  return examples;
}

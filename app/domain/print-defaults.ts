// The one set of default print settings: every estimate made before a customer picks their own
// (model pages, stored model weights, catalogue weights, drafts made from a model, the demo data)
// uses these, so a model's grams on its page are the grams of the draft Order Print makes.

export const PRINT_DEFAULTS = {
  material: "PLA",
  infill: 20,
  layerHeight: 0.2,
  supports: "auto",
} as const;

// The vocabulary of models in our own library: how hard a print is, and the licences a model may carry.

export const DIFFICULTIES = ["beginner", "intermediate", "advanced"] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

export const LICENSES = [
  "CC BY",
  "CC BY-SA",
  "CC BY-NC",
  "CC BY-ND",
  "CC BY-NC-SA",
  "CC BY-NC-ND",
  "CC0",
  "GPL",
  "All Rights Reserved",
  "Other",
] as const;
export type LibraryLicense = (typeof LICENSES)[number];

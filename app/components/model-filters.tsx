// The sort options of Browse Models (document 000), shared by the page's filter form, the server and the API.
export const MODEL_SORTS = [
  { id: "newest", label: "Newest" },
  { id: "popular", label: "Most Popular" },
  { id: "featured", label: "Featured" },
] as const;
export type ModelSort = (typeof MODEL_SORTS)[number]["id"];
export const DEFAULT_MODEL_SORT: ModelSort = "featured";

export function parseModelSort(value: string | null | undefined): ModelSort {
  return MODEL_SORTS.some((s) => s.id === value) ? (value as ModelSort) : DEFAULT_MODEL_SORT;
}

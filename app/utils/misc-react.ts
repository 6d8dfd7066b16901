// React helpers every route shares.
import { useFormAction, useNavigation } from "@remix-run/react";

/**
 * True while this page's form (or the given action/method) is being submitted or loading its answer;
 * with `intent` (and `values`), only while the post carries that intent (and those fields), e.g. one
 * row's button among several forms on a page.
 */
export function useIsPending({
  formAction,
  formMethod = "POST",
  state = "non-idle",
  intent,
  values,
}: {
  formAction?: string;
  formMethod?: "POST" | "GET" | "PUT" | "PATCH" | "DELETE";
  state?: "submitting" | "loading" | "non-idle";
  intent?: string;
  values?: Record<string, string | number>;
} = {}) {
  const contextualFormAction = useFormAction();
  const navigation = useNavigation();
  const isPendingState = state === "non-idle" ? navigation.state !== "idle" : navigation.state === state;
  return (
    isPendingState &&
    navigation.formAction === (formAction ?? contextualFormAction) &&
    navigation.formMethod === formMethod &&
    (intent === undefined || navigation.formData?.get("intent") === intent) &&
    Object.entries(values ?? {}).every(([name, value]) => navigation.formData?.get(name) === String(value))
  );
}

/** True while the browser fetches the page at `pathname` (new filters, another page of results). */
export function useIsLoading(pathname: string): boolean {
  const navigation = useNavigation();
  return navigation.state === "loading" && navigation.location?.pathname === pathname;
}

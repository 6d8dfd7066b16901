// The site's forms. React Router's Form resolves its action against the route matches and builds its submit
// function on each render; a form that posts or gets to an absolute address of this site, with nothing but
// attributes, needs none of that: it is a <form> marked for the one submit handler the root installs
// (InAppSubmission), which submits it as Form would (decision 036). Anything else — no action (the current
// route's), another method, navigate, replace, state, reloadDocument, an onSubmit of its own — is Remix's Form.
import { Form as RemixForm, useSubmit, type FormProps } from "@remix-run/react";
import { forwardRef, useEffect } from "react";
import { IN_APP, isSiteAddress } from "./link";

const ATTRIBUTES = new Set(["id", "className", "noValidate", "encType", "autoComplete", "title", "role"]);

/** Whether the form needs nothing of React Router's Form: an absolute site action, GET or POST, attributes only. */
export function isPlainForm(props: Record<string, unknown>): boolean {
  if (!isSiteAddress(props.action)) return false;
  const method = typeof props.method === "string" ? props.method.toLowerCase() : "get";
  if (method !== "get" && method !== "post") return false;
  for (const key in props) {
    if (key === "action" || key === "method" || key === "children" || ATTRIBUTES.has(key)) continue;
    if (!key.startsWith("aria-") && !key.startsWith("data-")) return false;
  }
  return true;
}

export const Form = forwardRef<HTMLFormElement, FormProps>(function Form(props, ref) {
  if (!isPlainForm(props as Record<string, unknown>)) return <RemixForm ref={ref} {...props} />;
  const { method, action, children, ...attributes } = props;
  // the attributes Remix's Form draws (method in lower case, data-discover for lazy route discovery)
  return (
    <form
      ref={ref}
      method={method?.toLowerCase() === "post" ? "post" : "get"}
      action={action}
      data-discover="true"
      data-in-app=""
      {...attributes}
    >
      {children}
    </form>
  );
});

/**
 * The plain in-app forms' one submit handler: a submission no one else handled, in this window, goes through
 * Remix's submit with the submitter (its name, value, formaction and formmethod), as Form's own handler does.
 */
export function InAppSubmission() {
  const submit = useSubmit();
  useEffect(() => {
    const onSubmit = (event: SubmitEvent) => {
      if (event.defaultPrevented) return;
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || !form.hasAttribute(IN_APP)) return;
      const submitter = event.submitter as HTMLButtonElement | HTMLInputElement | null;
      const target = submitter?.getAttribute("formtarget") || form.getAttribute("target");
      if (target && target !== "_self") return;
      const method = (submitter?.getAttribute("formmethod") || form.getAttribute("method") || "get").toLowerCase();
      event.preventDefault();
      submit(submitter ?? form, { method: method === "post" ? "post" : "get" });
    };
    document.addEventListener("submit", onSubmit);
    return () => document.removeEventListener("submit", onSubmit);
  }, [submit]);
  return null;
}

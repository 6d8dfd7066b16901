import type { MetaFunction } from "@remix-run/node";
import { ContactPage } from "~/components/contact-page";

// /help shows the contact page, posting to its own URL with the same loader and action.
export { action, loader } from "./contact";

export const meta: MetaFunction = () => [
  { title: "Help Center | Printnear" },
  { name: "description", content: "Get help with quotes, orders and printer listings, or send the Printnear team a message." },
];

export default ContactPage;

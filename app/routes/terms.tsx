import type { MetaFunction } from "@remix-run/node";
import { Link } from "~/components/link";
import { SUPPORT_EMAIL } from "~/components/site-footer";
import { formatCents } from "~/domain/money";
import { PLATFORM_FEE_MINIMUM_CENTS, PLATFORM_FEE_PERCENT } from "~/domain/pricing";

export const meta: MetaFunction = () => [
  { title: "Terms of Service | Printnear" },
  { name: "description", content: "The rules for using Printnear as a customer or as a printer owner." },
];

const TERMS: { title: string; paragraphs: string[] }[] = [
  {
    title: "1. What Printnear is",
    paragraphs: [
      "Printnear is a marketplace. It puts people who want a 3D print in touch with independent owners of 3D printers near them, and handles quotes, payment and messages between them. The printer owner, not Printnear, makes the print.",
      "By creating an account or placing an order you agree to these terms. If you do not agree, please do not use the service.",
    ],
  },
  {
    title: "2. Your account",
    paragraphs: [
      "You must be at least 18, or have a parent's or guardian's permission, and give accurate details. Keep your password to yourself; you are responsible for what happens under your account. Tell us straight away if you think someone else has used it.",
      "We may suspend or close accounts that break these terms, put other users at risk or are used for fraud.",
    ],
  },
  {
    title: "3. Designs and content you upload",
    paragraphs: [
      "You keep ownership of the designs, images, messages and reviews you upload. You give Printnear and the printer owner you choose a limited permission to store, analyse, display to you and print your design, only as far as needed to quote and fulfil your order.",
      "Only upload files you have the right to have printed. Do not order weapons or weapon parts, items that copy someone else's trademark or design without permission, or anything illegal where you or the printer owner live. Printer owners may decline any job.",
      "Catalogue models come from a public model-sharing site and remain their designers' work under the licence shown on each model. You are responsible for following that licence, for example by not selling prints of a model licensed for non-commercial use.",
    ],
  },
  {
    title: "4. Prices, payment and cancellation",
    paragraphs: [
      `Every price is shown in full before you pay: the printer owner's price, a platform fee of ${PLATFORM_FEE_PERCENT}% (at least ${formatCents(PLATFORM_FEE_MINIMUM_CENTS)}) and any delivery or shipping cost. Prices are in US dollars.`,
      "When you pay, your card is authorised; it is charged only when the printer owner accepts your order. If the owner declines, or does not accept before the authorisation expires, the authorisation is released and you are not charged.",
      "You may cancel an order free of charge from its order page until the printer owner accepts it. After acceptance, contact the owner through the order's messages. If the owner cancels an accepted order, you receive a full refund.",
    ],
  },
  {
    title: "5. Prints, delivery and problems",
    paragraphs: [
      "3D prints show layer lines and small differences from on-screen previews; these are normal and not defects. Weight and time estimates are estimates, but the price you accepted does not change.",
      "Until a print is finished, the printer owner may cancel an accepted order, and you are then refunded in full. If a print arrives broken, clearly different from what you ordered, or never arrives, write to the printer owner from the order page, or contact us within 14 days of pickup, delivery or the expected delivery date; we reply within 24 hours and work with you and the printer owner on a fix.",
      "Shipping is handled by the carrier shown at checkout. Risk in a shipped print passes to you on delivery; in a collected print, on pickup.",
    ],
  },
  {
    title: "6. Printer owners",
    paragraphs: [
      "If you list a printer, you confirm that you own or may use it, that your listing (model, build volume, materials, colours in stock, location and price) is accurate, and that you will print accepted jobs with reasonable care and on time.",
      "You are an independent seller, not an employee or agent of Printnear. You are responsible for your own taxes and for any permits your local rules require.",
      "For each job that is picked up or shipped, you may request a payout of the printing price you set from Order Tracking; it is paid once, through our payment provider, to the payout account you connect there.",
      "Use customers' names, e-mail addresses and files only to fulfil their orders. Do not keep, share or reprint a customer's design without their permission.",
    ],
  },
  {
    title: "7. Acceptable use",
    paragraphs: [
      "Do not misuse the service: no attempts to break into accounts or systems, no scraping or automated ordering, no spam or harassment in messages, and no moving a transaction off Printnear to avoid fees after being introduced here.",
    ],
  },
  {
    title: "8. Liability",
    paragraphs: [
      "We work to keep Printnear available and accurate but cannot promise it will always be error-free. To the extent the law allows, Printnear is not liable for indirect or consequential losses, and our total liability for any order is limited to the amount you paid for it. Nothing in these terms limits rights you have as a consumer that cannot be waived.",
    ],
  },
  {
    title: "9. Changes and contact",
    paragraphs: [
      "We may update these terms. For important changes we will tell account holders by e-mail before they take effect. Orders already placed keep the terms in force when they were placed.",
      `Questions about these terms: ${SUPPORT_EMAIL}.`,
    ],
  },
];

export default function Terms() {
  return (
    <div className="container-page py-12">
      <article className="max-w-3xl">
        <h1 className="text-3xl font-bold">Terms of Service</h1>
        <p className="mt-2 text-sm text-slate-500">
          Plain-language terms for customers and printer owners. Questions? See the{" "}
          <Link to="/faq" className="text-brand-700 underline">
            FAQ
          </Link>{" "}
          or{" "}
          <Link to="/contact" className="text-brand-700 underline">
            contact us
          </Link>
          .
        </p>
        {TERMS.map((section) => (
          <section key={section.title} className="mt-8">
            <h2 className="text-xl font-semibold">{section.title}</h2>
            {section.paragraphs.map((text) => (
              <p key={text.slice(0, 40)} className="mt-3 leading-relaxed text-slate-700">
                {text}
              </p>
            ))}
          </section>
        ))}
      </article>
    </div>
  );
}

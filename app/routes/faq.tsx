import type { MetaFunction } from "@remix-run/node";
import { Link } from "~/components/link";
import type { ReactNode } from "react";
import { SUPPORT_EMAIL, SUPPORT_HOURS } from "~/components/site-footer";
import { formatCents } from "~/domain/money";
import {
  DEFAULT_RATE_PER_KG_CENTS,
  LOCAL_DELIVERY_FEE_CENTS,
  MULTICOLOR_PREMIUM_PER_EXTRA_COLOR_CENTS,
  PLATFORM_FEE_MINIMUM_CENTS,
  PLATFORM_FEE_PERCENT,
  TIME_PREMIUM_BLOCK_MINUTES,
  TIME_PREMIUM_PER_BLOCK_CENTS,
  quotePrice,
} from "~/domain/pricing";

export const meta: MetaFunction = () => [
  { title: "FAQ | Printnear" },
  {
    name: "description",
    content: "Answers about quotes, fees, materials, delivery, payments, listing a printer and model licences.",
  },
];

// The worked example runs the real price engine, so the FAQ can't drift from checkout.
const EXAMPLE_GRAMS = 100;
const EXAMPLE_RATE = 12000;
const example = quotePrice({ weightGrams: EXAMPLE_GRAMS, ratePerKgCents: EXAMPLE_RATE });
const fee = `${PLATFORM_FEE_PERCENT}%`;
const minimumFee = formatCents(PLATFORM_FEE_MINIMUM_CENTS);

const SECTIONS: { title: string; items: { q: string; a: ReactNode }[] }[] = [
  {
    title: "Quotes and fees",
    items: [
      {
        q: "How is the price of a print worked out?",
        a: (
          <>
            <p>
              The price starts from the weight of filament your print needs, times the chosen printer's price per gram. Before you
              pick a printer we show the range over the printers near you that can print it, each at its own rate; only when none
              can do we quote the standard rate of {formatCents(DEFAULT_RATE_PER_KG_CENTS)} per kilogram, and we say so.
            </p>
            <p className="mt-2">
              Multi-colour prints add {formatCents(MULTICOLOR_PREMIUM_PER_EXTRA_COLOR_CENTS)} per extra colour and{" "}
              {formatCents(TIME_PREMIUM_PER_BLOCK_CENTS)} for every {TIME_PREMIUM_BLOCK_MINUTES} minutes of print time, because
              colour changes keep the printer busy for longer.
            </p>
          </>
        ),
      },
      {
        q: "What is the platform fee?",
        a: (
          <p>
            Printnear adds a {fee} platform fee to the printer's price, with a minimum of {minimumFee} per print. It is already
            included in every price you see. For example, a {EXAMPLE_GRAMS} g print on a printer charging{" "}
            {formatCents(EXAMPLE_RATE / 1000)} per gram costs {formatCents(example.printerProfit)} for the printing plus a{" "}
            {formatCents(example.platformFee)} fee, {formatCents(example.customerPays)} in total.
          </p>
        ),
      },
      {
        q: "Is the quote final?",
        a: (
          <p>
            Yes. The amount you pay is calculated on our server from your design's weight, the colours, the print time, the
            printer's rate and your delivery choice, and it is shown in full before you pay. Printer owners cannot add charges
            afterwards.
          </p>
        ),
      },
    ],
  },
  {
    title: "Materials and files",
    items: [
      {
        q: "Which file formats can I upload?",
        a: (
          <p>
            STL, 3MF and OBJ files up to 50 MB. We analyse the file when you upload it to estimate its weight, size and print
            time.
          </p>
        ),
      },
      {
        q: "Which materials can I choose?",
        a: (
          <p>
            Most printers offer PLA, PETG, ABS and TPU; some also print ASA, PC, Nylon and speciality filaments such as wood fill
            or carbon fibre. Every printer lists its materials and the colours it has in stock, and the printer list only shows
            printers that can print your choice. PLA suits most decorative parts; PETG and ASA cope better with heat and sunlight;
            TPU is flexible.
          </p>
        ),
      },
      {
        q: "What if my model is too big for a printer?",
        a: (
          <p>
            Printers whose build volume is too small for your design are filtered out. If none fits, consider scaling the model or
            splitting it into parts.
          </p>
        ),
      },
    ],
  },
  {
    title: "Delivery",
    items: [
      {
        q: "How do I get my print?",
        a: (
          <ul className="list-disc space-y-1 pl-5">
            <li>Pickup from the printer owner is free.</li>
            <li>Local delivery costs a flat {formatCents(LOCAL_DELIVERY_FEE_CENTS)}.</li>
            <li>
              Shipping is by USPS; the rate for your ZIP code is shown at checkout, and the tracking number appears on your order
              page once it is sent.
            </li>
          </ul>
        ),
      },
      {
        q: "How long does it take?",
        a: (
          <p>
            Most orders are ready in 2-3 business days. Your order page shows each step: accepted, printing, complete, ready for
            pickup or shipped.
          </p>
        ),
      },
    ],
  },
  {
    title: "Payments",
    items: [
      {
        q: "When am I charged?",
        a: (
          <p>
            When you pay, your card is only authorised. It is charged when the printer owner accepts the job. If the owner
            declines, or does not respond before the authorisation runs out, the hold is released and you pay nothing.
          </p>
        ),
      },
      {
        q: "Can I cancel an order?",
        a: (
          <p>
            Yes, with Cancel Order on your order page, until the printer owner accepts it, at no cost. After that the print may
            already be under way, so message the owner from your order page. If an owner cancels an accepted job, you are refunded
            in full.
          </p>
        ),
      },
      {
        q: "Which cards do you accept?",
        a: (
          <p>
            Visa, Mastercard and American Express, processed by our card payment provider. Printnear never stores your card
            number.
          </p>
        ),
      },
    ],
  },
  {
    title: "Printer owners",
    items: [
      {
        q: "How do I list my printer?",
        a: (
          <p>
            Create an account and{" "}
            <Link to="/add-printer" className="text-brand-700 underline">
              add your printer
            </Link>
            : its model, build volume, location, materials and your price per gram. You can switch it to busy whenever you need
            the machine for yourself.
          </p>
        ),
      },
      {
        q: "How do I get paid?",
        a: (
          <p>
            You keep the full printing price you set; the {fee} platform fee is added on top for the customer. Once a job has been
            picked up or shipped, request its payout from the Payouts tab of{" "}
            <Link to="/printer-tracking" className="text-brand-700 underline">
              Order Tracking
            </Link>
            ; it goes to the payout account you connect there through our payment provider.
          </p>
        ),
      },
      {
        q: "Do I have to accept every job?",
        a: (
          <p>
            No. You see each paid order with its file, material and colour, and you accept or decline it. Declined orders are
            never charged to the customer.
          </p>
        ),
      },
    ],
  },
  {
    title: "Catalogue models and licences",
    items: [
      {
        q: "Can I order a print of any model in the catalogue?",
        a: (
          <p>
            Catalogue models come from a public model-sharing site and stay their designers' work. Each model page shows its
            licence. Licences such as CC BY allow prints to be made and sold with credit to the designer, so those models can be
            ordered here. Non-commercial licences (for example CC BY-NC) do not allow a print to be sold, so those models can't be
            ordered as paid prints: their pages say why, and you can still download the file and print it yourself.
          </p>
        ),
      },
      {
        q: "I uploaded a design. Who owns it?",
        a: (
          <p>
            You do. You give us and the printer you choose only the rights needed to quote and print your order. Only upload files
            you have the right to print. See our{" "}
            <Link to="/terms" className="text-brand-700 underline">
              terms
            </Link>
            .
          </p>
        ),
      },
    ],
  },
];

export default function Faq() {
  return (
    <div className="container-page py-12">
      <div className="max-w-3xl">
        <h1 className="text-3xl font-bold">Frequently Asked Questions</h1>
        <p className="mt-2 text-slate-600">
          Can't find your answer?{" "}
          <Link to="/contact" className="text-brand-700 underline">
            Contact us
          </Link>{" "}
          or email {SUPPORT_EMAIL}. Support hours are {SUPPORT_HOURS}; we reply within 24 hours.
        </p>

        {SECTIONS.map((section) => (
          <section key={section.title} className="mt-10">
            <h2 className="text-xl font-semibold">{section.title}</h2>
            <div className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200">
              {section.items.map((item) => (
                <details key={item.q} className="group p-4">
                  <summary className="flex cursor-pointer items-center justify-between gap-4 font-medium">
                    {item.q}
                    <span aria-hidden="true" className="text-slate-400 transition-transform group-open:rotate-45">
                      +
                    </span>
                  </summary>
                  <div className="mt-3 text-slate-600">{item.a}</div>
                </details>
              ))}
            </div>
          </section>
        ))}
      </div>
    </div>
  );
}

import type { MetaFunction } from "@remix-run/node";
import { Link } from "~/components/link";
import { LOCAL_DELIVERY_FEE_CENTS, PLATFORM_FEE_PERCENT } from "~/domain/pricing";
import { formatCents } from "~/domain/money";

export const meta: MetaFunction = () => [
  { title: "How it Works | Printnear" },
  {
    name: "description",
    content: "Upload a design, find a printer near you, get it printed, then pick it up or have it shipped.",
  },
];

const STEPS = [
  {
    title: "Upload your design",
    text: "Drop in an STL, 3MF or OBJ file (up to 50 MB), or start from a model in the catalogue. We measure it and estimate its weight and print time, so you see the price straight away.",
    link: { to: "/upload", label: "Upload a design" },
  },
  {
    title: "Find a printer",
    text: "See the printers near you that fit your design: build volume, material and the colours they have in stock. Each owner sets their own price per gram; the quote updates when you choose one.",
    link: { to: "/printers", label: "Find a printer" },
  },
  {
    title: "It gets printed",
    text: `You pay by card when you order: the card is authorised, and charged only once the owner accepts the job. Until then you can cancel at no cost. Follow its progress on your order page and message the owner there if you have questions. The ${PLATFORM_FEE_PERCENT}% platform fee is already in the price.`,
    link: null,
  },
  {
    title: "Pick up or ship",
    text: `Collect the print from the owner for free, choose local delivery for a flat ${formatCents(LOCAL_DELIVERY_FEE_CENTS)}, or have it shipped by USPS at the rate shown at checkout, with its tracking number on your order page.`,
    link: null,
  },
];

export default function HowItWorks() {
  return (
    <div className="container-page py-12">
      <div className="max-w-2xl">
        <h1 className="text-3xl font-bold">How Printnear Works</h1>
        <p className="mt-2 text-lg text-slate-600">
          Printnear connects people who need something printed with owners of 3D printers nearby. Four steps from file to finished
          part.
        </p>
      </div>

      <ol className="mt-10 grid gap-6 md:grid-cols-2">
        {STEPS.map((step, i) => (
          <li key={step.title} className="card flex gap-4 p-6">
            <span
              aria-hidden="true"
              className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-brand-600 font-bold text-white"
            >
              {i + 1}
            </span>
            <div>
              <h2 className="text-lg font-semibold">
                <span className="sr-only">Step {i + 1}: </span>
                {step.title}
              </h2>
              <p className="mt-2 text-slate-600">{step.text}</p>
              {step.link ? (
                <Link to={step.link.to} className="mt-3 inline-block font-medium text-brand-700 hover:underline">
                  {step.link.label} →
                </Link>
              ) : null}
            </div>
          </li>
        ))}
      </ol>

      <section className="mt-12 rounded-2xl bg-slate-50 p-8" aria-labelledby="owners">
        <h2 id="owners" className="text-xl font-semibold">
          Have a 3D printer?
        </h2>
        <p className="mt-2 max-w-2xl text-slate-600">
          List it on Printnear, set your price per gram and your filament stock, and accept the jobs that suit you. Once a job is
          picked up or shipped, request its payout from Order Tracking.
        </p>
        <div className="mt-4 flex flex-wrap gap-3">
          <Link to="/add-printer" className="btn-primary">
            List Your Printer
          </Link>
          <Link to="/faq" className="btn-secondary">
            Read the FAQ
          </Link>
        </div>
      </section>
    </div>
  );
}

import { useLocation } from "@remix-run/react";
import { FixedMarkup } from "./fixed-markup";
import { Form } from "./form";
import { Link } from "./link";
import { HoneypotInputs } from "remix-utils/honeypot/react";

export const SUPPORT_EMAIL = "support@printnear.com";
export const SUPPORT_PHONE = "(970) 555-0142";
export const SUPPORT_HOURS = "Mon-Fri 9AM-6PM MST";

/** The newsletter sign-up: e-mail and interest; a confirmation e-mail follows (double opt-in). */
function NewsletterSignup() {
  const location = useLocation();
  return (
    <Form method="post" action="/newsletter" className="mt-5 space-y-2" aria-label="Newsletter">
      <h2 className="font-semibold text-slate-900">Newsletter</h2>
      <HoneypotInputs />
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <label className="block">
        <span className="sr-only">E-mail for the newsletter</span>
        <input
          type="email"
          name="email"
          required
          placeholder="you@example.com"
          className="w-full rounded border border-slate-300 bg-white px-2 py-1.5"
        />
      </label>
      <label className="block">
        <span className="sr-only">I am interested as</span>
        <select name="interest" className="w-full rounded border border-slate-300 bg-white px-2 py-1.5" defaultValue="customer">
          <option value="customer">Customer</option>
          <option value="printer_owner">Printer owner</option>
          <option value="investor">Investor</option>
        </select>
      </label>
      <button className="rounded bg-brand-700 px-3 py-1.5 text-white hover:opacity-90">Subscribe</button>
    </Form>
  );
}

const LINKS = "footer-links";
const CONTACT = "footer-contact";

const QUICK_LINKS = [
  { to: "/models", label: "Browse Models" },
  { to: "/browse", label: "Find Printers" },
  { to: "/upload", label: "Upload Design" },
  { to: "/pricing", label: "Pricing" },
  { to: "/add-printer", label: "List Your Printer" },
];

const SUPPORT_LINKS = [
  { to: "/how-it-works", label: "How it Works" },
  { to: "/help", label: "Help Center" },
  { to: "/faq", label: "FAQ" },
  { to: "/terms", label: "Terms of Service" },
];

function LinkColumn({ title, links }: { title: string; links: ReadonlyArray<{ to: string; label: string }> }) {
  return (
    <nav aria-label={title}>
      <h2 className="font-semibold text-slate-900">{title}</h2>
      <ul className="mt-3 space-y-2">
        {links.map(({ to, label }) => (
          <li key={to}>
            <Link to={to} className="hover:text-brand-700">
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The three columns of links: the same on every page, for every visitor. */
function FooterLinks() {
  return (
    <>
      <div>
        <p className="text-base font-bold text-brand-700">Printnear</p>
        <p className="mt-2">Local 3D printing from makers near you.</p>
        <ul className="mt-3 space-y-1">
          <li>✓ Secure checkout: your card is charged only when a printer accepts</li>
          <li>✓ Free cancellation until a printer accepts</li>
          <li>✓ Message your printer from the order page</li>
        </ul>
        <p className="mt-3">Card payments: Visa, Mastercard, Amex</p>
      </div>
      <LinkColumn title="Quick Links" links={QUICK_LINKS} />
      <LinkColumn title="Support" links={SUPPORT_LINKS} />
    </>
  );
}

/** How to reach support. */
function FooterContact() {
  return (
    <>
      <h2 className="font-semibold text-slate-900">Get in Touch</h2>
      <ul className="mt-3 space-y-2">
        <li>
          Email:{" "}
          <a href={`mailto:${SUPPORT_EMAIL}`} className="hover:text-brand-700">
            {SUPPORT_EMAIL}
          </a>
        </li>
        <li>
          Phone:{" "}
          <a href="tel:+19705550142" className="hover:text-brand-700">
            {SUPPORT_PHONE}
          </a>
        </li>
        <li>
          <Link to="/contact" className="hover:text-brand-700">
            Contact form
          </Link>
          : {SUPPORT_HOURS}. We reply within 24 hours.
        </li>
      </ul>
    </>
  );
}

/** The footer's parts drawn once per process on the server (entry.server.tsx, components/fixed-markup.tsx). */
export const FOOTER_FIXED_PARTS = { [LINKS]: FooterLinks, [CONTACT]: FooterContact };

export function SiteFooter() {
  return (
    <footer className="mt-16 border-t border-slate-200 bg-slate-50 text-sm text-slate-600">
      <div className="container-page grid gap-8 py-10 sm:grid-cols-2 lg:grid-cols-4">
        <FixedMarkup id={LINKS} part={FooterLinks} />
        <div>
          <FixedMarkup id={CONTACT} part={FooterContact} />
          <NewsletterSignup />
        </div>
      </div>
      <div className="border-t border-slate-200 py-4 text-center text-xs">
        © {new Date().getUTCFullYear()} Printnear. All rights reserved.
      </div>
    </footer>
  );
}

import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Link } from "~/components/link";
import { FeaturedCarousel } from "~/components/featured-carousel";
import type { FeaturedModel } from "~/domain/models";
import { listFeaturedModels } from "~/services/models/lists.server";
import { getSiteStats, type SiteStats } from "~/services/stats.server";
import { getSessionUser } from "~/utils/session.server";
import { formatNumber } from "~/domain/format";

const FEATURED_LIMIT = 12;

export const meta: MetaFunction = () => [
  { title: "Printnear: Browse. Choose. Print." },
  {
    name: "description",
    content:
      "No 3D printer? No problem. Pick a model or upload your design, get an instant quote and have it printed by a local printer owner.",
  },
];

export async function loader({ request }: LoaderFunctionArgs) {
  // Either section failing hides only that section, never the page.
  const [featured, stats] = await Promise.all([
    listFeaturedModels(FEATURED_LIMIT).catch((error: unknown) => {
      console.error("featured models failed", error);
      return [] as FeaturedModel[];
    }),
    getSessionUser(request)
      .then((user) => getSiteStats({ zipCode: user?.zipCode }))
      .catch((error: unknown) => {
        console.error("site stats failed", error);
        return null;
      }),
  ]);
  return { featured, stats };
}

const STAT_TILES: { key: keyof SiteStats; label: string }[] = [
  { key: "printersNearby", label: "Printers nearby" },
  { key: "printsThisMonth", label: "Prints this month" },
  { key: "totalPrinters", label: "Printers on Printnear" },
  { key: "totalOrders", label: "Orders placed" },
];

const STEPS = [
  { n: 1, title: "Browse & Choose", text: "Pick a model from the catalogue or upload your own STL, 3MF or OBJ file." },
  { n: 2, title: "Get Instant Quote", text: "We weigh the print and show the full price upfront, fees included." },
  { n: 3, title: "Order & Receive", text: "A printer owner near you prints it. Pick it up, or have it delivered or shipped." },
];

export default function Index() {
  const { featured, stats } = useLoaderData<typeof loader>();
  return (
    <>
      <section className="bg-linear-to-b from-brand-50 to-white">
        <div className="container-page py-16 text-center sm:py-24">
          <h1 className="text-4xl font-bold tracking-tight sm:text-6xl">Browse. Choose. Print.</h1>
          <p className="mt-4 text-xl font-medium text-brand-700">No 3D printer? No problem.</p>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-600">
            Find a model or bring your own design, see the price in seconds, and have it printed by a printer owner in your area.
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <Link to="/models" className="btn-primary px-6 py-3 text-base">
              Browse Models
            </Link>
            <Link to="/upload" className="btn-secondary px-6 py-3 text-base">
              Upload Your Design
            </Link>
          </div>
        </div>
      </section>

      {featured.length > 0 ? (
        <section aria-labelledby="featured-heading" className="container-page py-12">
          <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
            <div>
              <h2 id="featured-heading" className="text-2xl font-bold">
                Featured models
              </h2>
              <p className="text-slate-600">Popular designs, ready to print near you.</p>
            </div>
            <Link to="/models" className="btn-secondary">
              View All Models
            </Link>
          </div>
          <FeaturedCarousel models={featured} />
        </section>
      ) : null}

      {/* Rendered by the loader, so the document's 4-tile loading skeleton (for client-side loading) never shows. */}
      {stats ? (
        <section aria-label="Printnear in numbers" className="border-y border-slate-200 bg-slate-50">
          <dl className="container-page grid grid-cols-2 gap-6 py-10 text-center lg:grid-cols-4">
            {STAT_TILES.map((tile) => (
              <div key={tile.key} className="flex flex-col-reverse">
                <dt className="text-sm text-slate-600">{tile.label}</dt>
                <dd className="text-3xl font-bold text-brand-700" data-testid={`stat-${tile.key}`}>
                  {formatNumber(stats[tile.key])}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}

      <section aria-labelledby="steps-heading" className="container-page py-16">
        <h2 id="steps-heading" className="text-center text-3xl font-bold">
          How It Works
        </h2>
        <ol className="mt-10 grid gap-8 md:grid-cols-3">
          {STEPS.map((step) => (
            <li key={step.n} className="text-center">
              <span
                aria-hidden="true"
                className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-brand-600 text-xl font-bold text-white"
              >
                {step.n}
              </span>
              <h3 className="mt-4 text-lg font-semibold">
                <span className="sr-only">{step.n} </span>
                {step.title}
              </h3>
              <p className="mt-2 text-slate-600">{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="container-page pb-8">
        <div className="rounded-2xl bg-brand-600 px-6 py-12 text-center text-white">
          <h2 className="text-3xl font-bold">Ready to print?</h2>
          <p className="mx-auto mt-3 max-w-xl text-brand-100">
            Pick a model from the catalogue or upload your own file and get a quote in seconds.
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <Link to="/models" className="btn bg-white px-6 py-3 text-base text-brand-700 hover:bg-brand-50">
              Explore Models
            </Link>
            <Link to="/upload" className="btn border border-white px-6 py-3 text-base text-white hover:bg-brand-700">
              Upload Custom File
            </Link>
          </div>
        </div>
      </section>
    </>
  );
}

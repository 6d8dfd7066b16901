import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Link } from "~/components/link";
import { ErrorPage, GeneralErrorBoundary } from "~/components/error-boundary";
import { AvailabilityBadge, buildVolumeText, PrinterPhoto, ratingText } from "~/components/printer-card";
import { PrinterMap } from "~/components/printer-map";
import { StarRatingDisplay } from "~/components/star-rating";
import { formatPricePerGram } from "~/domain/pricing";
import { listPrinterReviews } from "~/services/printer-reviews.server";
import { getPrinterJson, mapTileUrl } from "~/services/printers/search.server";
import { LocalTime } from "~/components/local-time";
import { invariantResponse, requireIdParam } from "~/utils/misc";

const NOT_FOUND = "This printer doesn't exist or is no longer listed.";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.printer.name} | Printnear` : "Printer | Printnear" },
  { name: "description", content: data?.printer.description ?? "A 3D printer near you on Printnear." },
];

export async function loader({ params }: LoaderFunctionArgs) {
  const id = requireIdParam(params.id, NOT_FOUND);
  const printer = await getPrinterJson(id);
  invariantResponse(printer, NOT_FOUND, { status: 404 });
  const reviews = await listPrinterReviews(id);
  // colours in stock, per material: what the owner can really print today
  const stock = new Map<string, string[]>();
  for (const row of printer.filamentInventory) {
    if (!row.inStock) continue;
    stock.set(row.material, [...(stock.get(row.material) ?? []), row.color]);
  }
  return {
    printer: {
      id: printer.id,
      name: printer.name,
      model: printer.model,
      description: printer.description,
      imageUrl: printer.imageUrl,
      ownerFirstName: printer.owner.firstName?.trim() || "The owner",
      owner: { firstName: printer.owner.firstName, lastName: null },
      buildVolumeX: printer.buildVolumeX,
      buildVolumeY: printer.buildVolumeY,
      buildVolumeZ: printer.buildVolumeZ,
      materials: printer.materials,
      ratePerKgCents: printer.ratePerKgCents,
      location: printer.location,
      latitude: printer.latitude,
      longitude: printer.longitude,
      isAvailable: printer.isAvailable,
      rating: printer.rating,
      totalReviews: printer.totalReviews,
      totalJobs: printer.totalJobs,
    },
    stock: [...stock.entries()].map(([material, colors]) => ({ material, colors })),
    reviews,
    tileUrl: mapTileUrl(),
  };
}

export default function PrinterPage() {
  const { printer, stock, reviews, tileUrl } = useLoaderData<typeof loader>();
  const printHere = `/upload?printer=${printer.id}`;
  return (
    <div className="container-page py-8">
      <nav className="text-sm">
        <Link to="/printers" className="text-brand-700 hover:underline">
          ← All printers
        </Link>
      </nav>
      <div className="mt-4 grid gap-8 lg:grid-cols-[2fr_1fr]">
        <div className="flex flex-col gap-6">
          <PrinterPhoto printer={printer} className="h-72 w-full rounded-lg bg-slate-100 object-cover" />
          <div>
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div>
                <h1 className="text-3xl font-bold">{printer.name}</h1>
                <p className="text-slate-600">
                  {printer.model} · run by {printer.ownerFirstName}
                </p>
              </div>
              <AvailabilityBadge isAvailable={printer.isAvailable} />
            </div>
            <p className="mt-2 flex items-center gap-2 text-slate-700" data-testid="printer-rating">
              <StarRatingDisplay value={printer.rating} />
              <span className="font-semibold">{ratingText(printer.rating)}</span>
              {printer.totalReviews > 0 ? (
                <span className="text-slate-500">
                  ({printer.totalReviews} {printer.totalReviews === 1 ? "review" : "reviews"})
                </span>
              ) : null}
            </p>
            {printer.description ? <p className="mt-4 whitespace-pre-line text-slate-700">{printer.description}</p> : null}
          </div>

          <section aria-labelledby="reviews-heading" id="reviews">
            <h2 id="reviews-heading" className="text-xl font-semibold">
              Reviews
            </h2>
            {reviews.length === 0 ? (
              <p className="mt-2 text-slate-500">
                No reviews yet. Customers can rate a printer after their print is picked up or shipped.
              </p>
            ) : (
              <ul className="mt-3 flex flex-col gap-3" data-testid="printer-reviews">
                {reviews.map((r) => (
                  <li key={r.id} className="card p-4" data-testid="printer-review">
                    <div className="flex items-center justify-between gap-2">
                      <StarRatingDisplay value={r.rating} size="text-base" />
                      <span className="text-xs text-slate-500">
                        {r.customerName} · <LocalTime value={r.createdAt} dateOnly />
                      </span>
                    </div>
                    {r.review ? <p className="mt-2 whitespace-pre-line text-slate-700">{r.review}</p> : null}
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>

        <aside className="flex flex-col gap-4">
          <div className="card flex flex-col gap-3 p-4">
            <p className="text-2xl font-semibold" data-testid="price-per-gram">
              {formatPricePerGram(printer.ratePerKgCents)}
            </p>
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              <dt className="text-slate-500">Build volume</dt>
              <dd>{buildVolumeText(printer)}</dd>
              <dt className="text-slate-500">Materials</dt>
              <dd>{printer.materials.join(", ") || "None listed"}</dd>
              <dt className="text-slate-500">Jobs done</dt>
              <dd>{printer.totalJobs}</dd>
            </dl>
            {printer.isAvailable ? (
              <Link to={printHere} className="btn-primary w-full">
                Print here
              </Link>
            ) : (
              <p className="text-sm text-slate-500">This printer is busy right now.</p>
            )}
          </div>

          <div className="card p-4">
            <h2 className="font-semibold">Colours in stock</h2>
            {stock.length === 0 ? (
              <p className="mt-1 text-sm text-slate-500">The owner hasn't listed filament stock yet.</p>
            ) : (
              <dl className="mt-2 flex flex-col gap-1 text-sm" data-testid="printer-stock">
                {stock.map((s) => (
                  <div key={s.material}>
                    <dt className="inline font-medium">{s.material}: </dt>
                    <dd className="inline text-slate-700">{s.colors.join(", ")}</dd>
                  </div>
                ))}
              </dl>
            )}
          </div>

          <div className="card p-4">
            <h2 className="font-semibold">Location</h2>
            <p className="mt-1 text-sm text-slate-700" data-testid="printer-location">
              {printer.location || "Location not given"}
            </p>
            {printer.latitude && printer.longitude ? (
              <div className="mt-3 overflow-hidden rounded-md">
                <PrinterMap
                  printers={[
                    {
                      id: printer.id,
                      name: printer.name,
                      model: printer.model,
                      owner: printer.owner,
                      location: printer.location,
                      materials: printer.materials,
                      priceText: formatPricePerGram(printer.ratePerKgCents),
                      isAvailable: printer.isAvailable,
                      latitude: printer.latitude,
                      longitude: printer.longitude,
                      selectHref: printHere,
                    },
                  ]}
                  tileUrl={tileUrl}
                  heightPx={220}
                />
              </div>
            ) : null}
          </div>
        </aside>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: () => (
          <ErrorPage heading="Printer Not Found" message={NOT_FOUND}>
            <Link to="/printers" className="btn-primary">
              Find printers
            </Link>
          </ErrorPage>
        ),
      }}
    />
  );
}

// Model cards, their loading skeleton, and a model image that falls back to a placeholder when it cannot load.
import { Link } from "./link";
import { useEffect, useRef, useState } from "react";
import type { ModelCardData } from "~/domain/models";
import { formatNumber } from "~/domain/format";

const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });

export function formatCount(n: number) {
  return compact.format(n);
}

function Placeholder({ label }: { label: string }) {
  return (
    <div
      // an unnamed picture (the link beside it names the model) is decoration
      {...(label ? { role: "img", "aria-label": label } : { "aria-hidden": true })}
      data-testid="model-placeholder"
      className="flex h-full w-full items-center justify-center bg-gradient-to-br from-slate-100 to-slate-200 text-slate-400"
    >
      <svg viewBox="0 0 24 24" className="h-12 w-12" fill="none" stroke="currentColor" strokeWidth="1.5" aria-hidden="true">
        <path d="M12 2 3 7v10l9 5 9-5V7l-9-5Z" />
        <path d="m3 7 9 5 9-5M12 12v10" />
      </svg>
    </div>
  );
}

/**
 * An <img> that shows the placeholder instead of a broken picture (also when it failed before hydration); without
 * JavaScript the stylesheet's model-image rule draws the placeholder over a picture that could not load.
 */
export function ModelImage({ src, alt, className = "" }: { src: string | null; alt: string; className?: string }) {
  const [failed, setFailed] = useState(false);
  const ref = useRef<HTMLImageElement>(null);
  useEffect(() => {
    setFailed(false);
    const img = ref.current;
    if (img && img.complete && img.naturalWidth === 0) setFailed(true);
  }, [src]);
  if (!src || failed) return <Placeholder label={alt} />;
  return (
    <img
      ref={ref}
      src={src}
      alt={alt}
      loading="lazy"
      decoding="async"
      onError={() => setFailed(true)}
      className={`model-image h-full w-full object-cover ${className}`}
    />
  );
}

function Stat({ label, value, icon }: { label: string; value: number; icon: string }) {
  return (
    <span className="inline-flex items-center gap-1" title={`${formatNumber(value)} ${label}`}>
      <span aria-hidden="true">{icon}</span>
      <span className="sr-only">{label}:</span>
      {formatCount(value)}
    </span>
  );
}

export function ModelCard({ model }: { model: ModelCardData }) {
  const href = `/models/${model.source}/${model.id}`;
  return (
    <li className="card group overflow-hidden transition-shadow hover:shadow-md" data-testid="model-card">
      <Link to={href} className="block focus-visible:outline-2 focus-visible:outline-brand-500">
        <div className="relative aspect-[4/3] overflow-hidden bg-slate-100">
          <ModelImage src={model.thumbnailUrl} alt={model.name} className="transition-transform group-hover:scale-105" />
          <div className="absolute top-2 left-2 flex flex-wrap gap-1">
            {model.featured ? <span className="badge bg-amber-100 text-amber-800">Featured</span> : null}
            {!model.commercialUse ? <span className="badge bg-red-100 text-red-800">Non-commercial</span> : null}
          </div>
        </div>
        <div className="p-4">
          <h3 className="line-clamp-2 font-semibold text-slate-900">{model.name}</h3>
          <p className="mt-1 text-sm text-slate-600">by {model.creatorName}</p>
          <div className="mt-3 flex items-center justify-between gap-2 text-xs text-slate-500">
            <div className="flex gap-3">
              <Stat label="likes" value={model.likeCount} icon="♥" />
              <Stat label="downloads" value={model.downloadCount} icon="⬇" />
              <Stat label="views" value={model.viewCount} icon="👁" />
            </div>
            <span className="badge bg-slate-100 text-slate-700">{model.license}</span>
          </div>
        </div>
      </Link>
    </li>
  );
}

export function ModelCardSkeleton() {
  return (
    <li className="card overflow-hidden" data-testid="model-card-skeleton" aria-hidden="true">
      <div className="skeleton aspect-[4/3] rounded-none" />
      <div className="space-y-2 p-4">
        <div className="skeleton h-4 w-3/4" />
        <div className="skeleton h-3 w-1/2" />
        <div className="skeleton h-3 w-full" />
      </div>
    </li>
  );
}

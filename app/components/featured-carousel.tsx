import { Link } from "./link";
import { useEffect, useRef, useState } from "react";
import { formatNumber } from "~/domain/format";
import type { FeaturedModel } from "~/domain/models";
import { formatCount, ModelImage } from "./model-card";

/** The carousel moves 0.5 px per animation frame. */
export const CAROUSEL_PX_PER_FRAME = 0.5;

function Stat({ label, value, path }: { label: string; value: number; path: string }) {
  return (
    <span className="inline-flex items-center gap-1" title={`${formatNumber(value)} ${label}`}>
      <svg aria-hidden="true" width="12" height="12" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
        <path d={path} />
      </svg>
      <span className="sr-only">{label}: </span>
      {formatCount(value)}
    </span>
  );
}

const ICONS = {
  likes: "M20.8 4.6a5.5 5.5 0 0 0-7.8 0L12 5.7l-1-1.1a5.5 5.5 0 0 0-7.8 7.8L12 21l8.8-8.6a5.5 5.5 0 0 0 0-7.8z",
  downloads: "M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4M7 10l5 5 5-5M12 15V3",
  views: "M1 12s4-8 11-8 11 8 11 8-4 8-11 8-11-8-11-8zM12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6z",
};

function Card({ model, hidden }: { model: FeaturedModel; hidden: boolean }) {
  return (
    <li className="w-56 shrink-0" data-testid={hidden ? undefined : "carousel-item"}>
      <Link
        to={`/models/thingiverse/${model.sourceId}`}
        tabIndex={hidden ? -1 : undefined}
        className="card block overflow-hidden transition-shadow hover:shadow-md"
      >
        {/* as on /models: a picture that cannot load gives way to the placeholder, not a broken-image box */}
        <div className="h-42 w-56 bg-slate-100">
          <ModelImage src={model.thumbnailUrl} alt="" />
        </div>
        <div className="p-3">
          <p className="truncate font-medium text-slate-900">{model.name}</p>
          <p className="truncate text-sm text-slate-500">by {model.creatorName || "Unknown creator"}</p>
          <p className="mt-2 flex gap-3 text-xs text-slate-500">
            <Stat label="likes" value={model.likeCount} path={ICONS.likes} />
            <Stat label="downloads" value={model.downloadCount} path={ICONS.downloads} />
            <Stat label="views" value={model.viewCount} path={ICONS.views} />
          </p>
        </div>
      </Link>
    </li>
  );
}

/**
 * Featured catalogue models. Without JavaScript a horizontally scrollable row; with it the row
 * is duplicated and scrolls on its own, wrapping at one copy's width, and stops while hovered,
 * touched or focused.
 */
export function FeaturedCarousel({ models }: { models: FeaturedModel[] }) {
  const viewport = useRef<HTMLDivElement>(null);
  const firstCopy = useRef<HTMLUListElement>(null);
  const paused = useRef(false);
  // copies appear only after hydration, so the no-JS page lists each model once
  const [copies, setCopies] = useState(1);
  const looping = copies > 1;

  useEffect(() => {
    const el = viewport.current;
    const copy = firstCopy.current;
    if (!el || !copy || models.length === 0) return;
    if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) return;
    // enough copies that one full copy can scroll by while the viewport stays filled
    const measure = () => setCopies(Math.max(2, 1 + Math.ceil(el.clientWidth / Math.max(1, copy.offsetWidth))));
    measure();
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
  }, [models.length]);

  useEffect(() => {
    if (!looping) return;
    const el = viewport.current;
    const copy = firstCopy.current;
    if (!el || !copy) return;
    // scrollLeft is rounded by browsers, so the fractional position is kept here
    let position = el.scrollLeft;
    let frame = requestAnimationFrame(function step() {
      const loopWidth = copy.offsetWidth;
      if (paused.current || loopWidth === 0) {
        position = el.scrollLeft;
      } else {
        position += CAROUSEL_PX_PER_FRAME;
        if (position >= loopWidth) position -= loopWidth;
        el.scrollLeft = position;
      }
      frame = requestAnimationFrame(step);
    });
    return () => cancelAnimationFrame(frame);
  }, [looping]);

  if (models.length === 0) return null;
  const pause = () => (paused.current = true);
  const resume = () => (paused.current = false);

  return (
    <div
      ref={viewport}
      // relative: the cards' screen-reader-only labels are positioned inside the clipped row, not the page
      className="relative overflow-x-auto pb-3 [scrollbar-width:thin]"
      data-testid="featured-carousel"
      data-looping={looping ? "true" : undefined}
      onMouseEnter={pause}
      onMouseLeave={resume}
      onTouchStart={pause}
      onTouchEnd={resume}
      onFocus={pause}
      onBlur={resume}
    >
      <div className="flex w-max">
        <ul ref={firstCopy} className="flex gap-4 pr-4" aria-label="Featured models">
          {models.map((model) => (
            <Card key={model.sourceId} model={model} hidden={false} />
          ))}
        </ul>
        {Array.from({ length: copies - 1 }, (_, i) => (
          <ul key={i} className="flex gap-4 pr-4" aria-hidden="true">
            {models.map((model) => (
              <Card key={model.sourceId} model={model} hidden />
            ))}
          </ul>
        ))}
      </div>
    </div>
  );
}

// The printer map: Leaflet + OpenStreetMap tiles, loaded only when a map mounts.
import type * as Leaflet from "leaflet";
import { useNavigate } from "@remix-run/react";
import { Form } from "./form";
import { useEffect, useRef, useState } from "react";
import { MAP, toLatLon, type LatLon } from "~/domain/geo";

export const TILE_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';
export const MARKER_COLORS = { available: "#16a34a", busy: "#dc2626", selected: "#2563eb" } as const;

export interface MapPrinter {
  id: number;
  name: string;
  model: string;
  owner: { firstName: string | null; lastName: string | null };
  location: string;
  materials: string[];
  /** "$0.12/g" */
  priceText: string;
  isAvailable: boolean;
  latitude: string | null;
  longitude: string | null;
  selectHref: string;
}

export interface MapSearch {
  /** the GET form's other fields, kept when the map's search box is used */
  hidden: Record<string, string>;
  defaultValue: string;
}

type Located = MapPrinter & { point: LatLon };

function markerHtml(color: string, size: number, selected: boolean): string {
  // Inline SVG pins: no marker images from a CDN (nothing outside our origin but the tiles is fetched).
  return `<div class="${selected ? "animate-bounce" : ""}" style="width:${size}px;height:${size}px">
<svg viewBox="0 0 24 24" width="${size}" height="${size}" aria-hidden="true"><path d="M12 1C7.6 1 4 4.6 4 9c0 6 8 14 8 14s8-8 8-14c0-4.4-3.6-8-8-8z" fill="${color}" stroke="#fff" stroke-width="1.5"/><circle cx="12" cy="9" r="3" fill="#fff"/></svg></div>`;
}

function popupContent(p: Located, onSelect: (p: Located) => void): HTMLElement {
  // Built with textContent, never innerHTML: names and places are typed by owners.
  const root = document.createElement("div");
  root.className = "space-y-1 text-sm";
  const line = (text: string, className = "") => {
    const el = document.createElement("p");
    el.textContent = text;
    el.className = `m-0 ${className}`;
    root.appendChild(el);
    return el;
  };
  line(p.name, "font-semibold text-base");
  line(p.model, "text-slate-600");
  line([p.owner.firstName, p.owner.lastName].filter(Boolean).join(" "), "text-slate-600");
  line(p.location);
  line(p.materials.join(", "));
  line(p.priceText, "font-semibold");
  const badge = line(p.isAvailable ? "Available" : "Busy", "badge");
  badge.className += p.isAvailable ? " bg-green-100 text-green-800" : " bg-red-100 text-red-800";
  if (p.isAvailable) {
    const link = document.createElement("a");
    link.href = p.selectHref;
    link.textContent = "Select Printer";
    link.className = "btn-primary mt-2 w-full !text-white";
    link.addEventListener("click", (event) => {
      event.preventDefault();
      onSelect(p);
    });
    root.appendChild(link);
  } else {
    const button = document.createElement("button");
    button.type = "button";
    button.disabled = true;
    button.textContent = "Currently Busy";
    button.className = "btn-secondary mt-2 w-full";
    root.appendChild(button);
  }
  return root;
}

/** Leaflet and its stylesheet, fetched only when a map mounts; the UMD build arrives as a default export. */
async function loadLeaflet(): Promise<typeof Leaflet> {
  const [mod] = await Promise.all([import("leaflet"), import("leaflet/dist/leaflet.css")]);
  const leaflet = mod as typeof Leaflet & { default?: typeof Leaflet };
  return leaflet.default ?? leaflet;
}

export function PrinterMap({
  printers,
  tileUrl,
  selectedId,
  onSelectedChange,
  search,
  heightPx = MAP.heightPx,
}: {
  printers: MapPrinter[];
  tileUrl: string;
  selectedId?: number | null;
  onSelectedChange?: (id: number | null) => void;
  search?: MapSearch;
  heightPx?: number;
}) {
  const container = useRef<HTMLDivElement>(null);
  const leaflet = useRef<{ L: typeof Leaflet; map: Leaflet.Map; layer: Leaflet.LayerGroup } | null>(null);
  const markers = useRef(new Map<number, Leaflet.Marker>());
  const [ready, setReady] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  const [ownSelection, setOwnSelection] = useState<number | null>(null);
  const selected = selectedId !== undefined ? selectedId : ownSelection;
  const navigate = useNavigate();
  const select = (id: number | null) => (onSelectedChange ? onSelectedChange(id) : setOwnSelection(id));
  const selectRef = useRef(select);
  selectRef.current = select;
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;

  const located: Located[] = printers.flatMap((p) => {
    const point = toLatLon(p.latitude, p.longitude);
    return point ? [{ ...p, point }] : [];
  });
  const locatedKey = located.map((p) => `${p.id}:${p.point.latitude},${p.point.longitude}:${p.isAvailable}`).join("|");

  const [sizeTick, setSizeTick] = useState(0);

  useEffect(() => setHydrated(true), []);

  useEffect(() => {
    let cancelled = false;
    let map: Leaflet.Map | undefined;
    let resize: ResizeObserver | undefined;
    const markerMap = markers.current;
    void loadLeaflet().then((L) => {
      if (cancelled || !container.current) return;
      map = L.map(container.current, { scrollWheelZoom: false }).setView(
        [MAP.defaultCenter.latitude, MAP.defaultCenter.longitude],
        MAP.defaultZoom,
      );
      L.tileLayer(tileUrl, { attribution: TILE_ATTRIBUTION, maxZoom: 19 }).addTo(map);
      leaflet.current = { L, map, layer: L.layerGroup().addTo(map) };
      // Leaflet measures its box once: measure again when it changes, and refit only when it changed a lot
      // (a scrollbar appearing must not move the map under the user's pointer)
      let fitted = { width: 0, height: 0 };
      resize = new ResizeObserver(([entry]) => {
        const { width, height } = entry.contentRect;
        map?.invalidateSize();
        if (Math.abs(width - fitted.width) > 40 || Math.abs(height - fitted.height) > 40) {
          fitted = { width, height };
          setSizeTick((n) => n + 1);
        }
      });
      resize.observe(container.current);
      setReady(true);
    });
    return () => {
      cancelled = true;
      resize?.disconnect();
      map?.remove();
      leaflet.current = null;
      markerMap.clear();
      setReady(false);
    };
  }, [tileUrl]);

  // One marker per located printer; rebuilt only when the printers change.
  useEffect(() => {
    const current = leaflet.current;
    if (!ready || !current) return;
    const { L, layer } = current;
    layer.clearLayers();
    markers.current.clear();
    for (const p of located) {
      const marker = L.marker([p.point.latitude, p.point.longitude], {
        title: p.name,
        riseOnHover: true,
        // a blank div icon until the next effect styles it: Leaflet's default icon would fetch images we don't serve
        icon: L.divIcon({ className: "printer-marker", html: "", iconSize: [1, 1] }),
      });
      marker.bindPopup(
        () =>
          popupContent(p, (chosen) => {
            selectRef.current(chosen.id);
            navigateRef.current(chosen.selectHref);
          }),
        // choosing a printer zooms to it after the popup has opened: pan again once the map stops, so the
        // popup's top (name, model, owner) is never left above the map's edge
        { keepInView: true, autoPanPadding: [MAP.popupPaddingPx, MAP.popupPaddingPx] },
      );
      marker.on("click", () => selectRef.current(p.id));
      marker.addTo(layer);
      markers.current.set(p.id, marker);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- locatedKey stands for `located`
  }, [ready, locatedKey]);

  // Marker colours and sizes, and the zoom rules.
  useEffect(() => {
    const current = leaflet.current;
    if (!ready || !current) return;
    const { L, map } = current;
    for (const p of located) {
      const isSelected = p.id === selected;
      const size = isSelected ? MAP.selectedMarkerSizePx : MAP.markerSizePx;
      const color = isSelected ? MARKER_COLORS.selected : p.isAvailable ? MARKER_COLORS.available : MARKER_COLORS.busy;
      const marker = markers.current.get(p.id);
      marker?.setIcon(
        L.divIcon({
          className: `printer-marker ${isSelected ? "printer-marker-selected" : p.isAvailable ? "printer-marker-available" : "printer-marker-busy"}`,
          html: markerHtml(color, size, isSelected),
          iconSize: [size, size],
          iconAnchor: [size / 2, size],
          popupAnchor: [0, -size],
        }),
      );
      marker?.setZIndexOffset(isSelected ? 1000 : 0);
      // A div icon has no alt text: name the marker for screen readers (Leaflet gives it role=button).
      marker
        ?.getElement()
        ?.setAttribute("aria-label", `${p.name}, ${p.isAvailable ? "Available" : "Busy"}${isSelected ? ", selected" : ""}`);
    }
    const chosen = located.find((p) => p.id === selected);
    if (chosen) map.setView([chosen.point.latitude, chosen.point.longitude], MAP.selectedZoom);
    else if (located.length === 1) map.setView([located[0]!.point.latitude, located[0]!.point.longitude], MAP.singlePrinterZoom);
    else if (located.length > 1) {
      map.fitBounds(L.latLngBounds(located.map((p) => [p.point.latitude, p.point.longitude] as [number, number])), {
        padding: [MAP.fitPaddingPx, MAP.fitPaddingPx],
      });
    } else map.setView([MAP.defaultCenter.latitude, MAP.defaultCenter.longitude], MAP.defaultZoom);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- locatedKey stands for `located`
  }, [ready, locatedKey, selected, sizeTick]);

  const unlocated = printers.length - located.length;
  return (
    <div className="space-y-3" data-testid="printer-map-block">
      {search ? (
        <Form method="get" className="flex gap-2" role="search" aria-label="Search the map">
          {Object.entries(search.hidden).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <input
            type="search"
            name="location"
            defaultValue={search.defaultValue}
            placeholder="Search by city, state, or ZIP code..."
            aria-label="Search by city, state, or ZIP code"
            className="input"
          />
          <button type="submit" className="btn-secondary">
            Search
          </button>
        </Form>
      ) : null}
      <noscript>
        <p className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900" data-testid="map-noscript">
          The map needs JavaScript. Every printer it would show is in the list below.
        </p>
      </noscript>
      <div
        className={`relative overflow-hidden rounded-lg border border-slate-200 ${hydrated ? "" : "hidden"}`}
        style={{ height: heightPx }}
      >
        <div ref={container} className="h-full w-full" data-testid="printer-map" aria-label="Map of printers" role="region" />
        {hydrated && !ready ? (
          <p className="absolute inset-0 flex items-center justify-center bg-slate-50 text-sm text-slate-500">Loading map...</p>
        ) : null}
      </div>
      <ul className="flex flex-wrap gap-4 text-sm text-slate-600" aria-label="Map legend">
        <li className="flex items-center gap-1">
          <span className="inline-block h-3 w-3 rounded-full" style={{ background: MARKER_COLORS.available }} />
          Available
        </li>
        <li className="flex items-center gap-1">
          <span className="inline-block h-3 w-3 rounded-full" style={{ background: MARKER_COLORS.busy }} />
          Busy
        </li>
        <li className="flex items-center gap-1">
          <span className="inline-block h-3 w-3 rounded-full" style={{ background: MARKER_COLORS.selected }} />
          Selected
        </li>
      </ul>
      {unlocated > 0 ? (
        <p className="text-xs text-slate-500">{unlocated} printer(s) without a map location are only in the list.</p>
      ) : null}
    </div>
  );
}

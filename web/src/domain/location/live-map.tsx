import * as L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useEffect, useRef } from 'react';
import type { LatLng } from '../../../../shared/domain/geo';

/**
 * The Leaflet map of a job: the customer's place and the professional's latest point (or each pro's,
 * for a crew). Loaded only through React.lazy (job-tracking.tsx), so Leaflet and its CSS are a chunk
 * of their own that screens without a map never fetch.
 */
export const TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

/** Colours a reader can tell apart from the tiles; each point also carries a text label. */
const customerStyle: L.CircleMarkerOptions = { radius: 9, color: '#ffffff', weight: 3, fillColor: '#1d4ed8', fillOpacity: 1, interactive: false };
const workerStyle: L.CircleMarkerOptions = { radius: 9, color: '#1f2937', weight: 3, fillColor: '#f59e0b', fillOpacity: 1, interactive: false };

/** A pro on the map: a stable key (so a moving pro moves their marker), where they are and the text beside it. */
export interface MapPro {
  key: string;
  point: LatLng;
  label: string;
}

export default function LiveMap({
  customer,
  worker = null,
  pros,
  label,
  onTilesFailed,
}: {
  customer: LatLng | null;
  /** The one pro of a job ("Your professional"). */
  worker?: LatLng | null;
  /** Several pros (a crew), each with their own label; used when `worker` is not given. */
  pros?: readonly MapPro[];
  label: string;
  /** Called once when a tile cannot load (offline, blocked): the screen then keeps to text. */
  onTilesFailed: () => void;
}) {
  const container = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const markers = useRef(new Map<string, L.CircleMarker>());
  const failed = useRef(onTilesFailed);
  useEffect(() => {
    failed.current = onTilesFailed;
  }, [onTilesFailed]);

  useEffect(() => {
    if (!container.current) return;
    // No keyboard panning: the container would be a tab stop with nothing to say; the zoom buttons stay reachable.
    const created = L.map(container.current, { scrollWheelZoom: false, keyboard: false, attributionControl: true });
    let reported = false;
    L.tileLayer(TILE_URL, { attribution: ATTRIBUTION, maxZoom: 19 })
      .on('tileerror', () => {
        if (reported) return;
        reported = true;
        failed.current();
      })
      .addTo(created);
    map.current = created;
    const placed = markers.current;
    return () => {
      created.remove();
      map.current = null;
      placed.clear();
    };
  }, []);

  // The points as a value: a new object with the same coordinates (every render) moves nothing.
  const shown: MapPro[] = worker ? [{ key: 'worker', point: worker, label: 'Your professional' }] : [...(pros ?? [])];
  const where = JSON.stringify([customer, shown]);
  useEffect(() => {
    const current = map.current;
    if (!current) return;
    const [customer, shown] = JSON.parse(where) as [LatLng | null, MapPro[]];
    const wanted: { key: string; point: LatLng | null; style: L.CircleMarkerOptions; text: string }[] = [
      { key: 'customer', point: customer, style: customerStyle, text: 'You' },
      ...shown.map((pro) => ({ key: `pro:${pro.key}`, point: pro.point, style: workerStyle, text: pro.label })),
    ];
    const keep = new Set(wanted.filter((w) => w.point).map((w) => w.key));
    for (const [key, marker] of markers.current) {
      if (keep.has(key)) continue;
      marker.remove();
      markers.current.delete(key);
    }
    for (const { key, point, style, text } of wanted) {
      if (!point) continue;
      const marker = markers.current.get(key);
      if (marker) marker.setLatLng(point);
      else {
        markers.current.set(
          key,
          L.circleMarker(point, style).bindTooltip(text, { permanent: true, direction: 'top', offset: [0, -10], interactive: false }).addTo(current),
        );
      }
    }
    const points = wanted.flatMap((w) => (w.point ? [w.point] : []));
    if (points.length >= 2) current.fitBounds(L.latLngBounds(points), { padding: [40, 40], maxZoom: 16 });
    else if (points[0]) current.setView(points[0], 15);
  }, [where]);

  return <div ref={container} role="region" aria-label={label} className="isolate h-56 w-full overflow-hidden rounded-xl bg-slate-800 sm:h-64" />;
}

import { MapPin, Pencil } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { LocationField } from '../../domain/request-form/location-field';
import type { StartingLocation } from '../../domain/request-form/request-form-panel';
import type { KnownCoordinates } from '../../domain/request-form/request-form';
import { Button } from '../../components/ui/button';

/**
 * The service-location box: where the professional should come, set once (address search, "Use
 * my location" or typed) and kept in this browser, so every request started here begins with it.
 */
export function ServiceLocationBox({ location, onChange }: { location: StartingLocation | null; onChange: (next: StartingLocation | null) => void }) {
  const [editing, setEditing] = useState(!location);
  const [text, setText] = useState(location?.text ?? '');
  const [coordinates, setCoordinates] = useState<KnownCoordinates | null>(location?.coordinates ?? null);
  const [error, setError] = useState<string | undefined>(undefined);

  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = text.trim();
    if (!trimmed) return setError('Enter an address or use your location');
    if (trimmed.length > 200) return setError('Location must be at most 200 characters');
    setError(undefined);
    onChange({ text: trimmed, coordinates });
    setEditing(false);
  };

  return (
    <section aria-labelledby="service-location-title" className="rounded-2xl bg-slate-900/85 p-6 text-slate-100 ring-1 ring-white/10">
      <h2 id="service-location-title" className="flex items-center gap-2 text-xl font-bold text-white">
        <MapPin aria-hidden="true" className="size-5 text-amber-300" />
        Service location
      </h2>
      <p className="mt-2 text-sm text-slate-200">
        Where should the professional come? Set it once and each request you start here begins with it. It stays in this browser.
      </p>
      {editing || !location ? (
        <form noValidate onSubmit={save} className="mt-4 grid gap-3">
          <LocationField
            id="service-location"
            name="serviceLocation"
            label="Service address"
            value={text}
            error={error}
            inputRef={() => undefined}
            onType={(typed) => {
              setText(typed);
              setCoordinates(null);
            }}
            onLocate={(found, position) => {
              setText(found);
              setCoordinates(position);
            }}
          />
          <div className="flex flex-wrap gap-3">
            <Button type="submit" size="sm">
              Save location
            </Button>
            {location ? (
              <Button
                variant="ghost"
                size="sm"
                onClick={() => {
                  setText(location.text);
                  setCoordinates(location.coordinates);
                  setError(undefined);
                  setEditing(false);
                }}
              >
                Cancel
              </Button>
            ) : null}
          </div>
        </form>
      ) : (
        <div className="mt-4 grid gap-3">
          <p className="rounded-xl bg-slate-950/60 p-3 font-medium text-white">{location.text}</p>
          <p className="text-sm text-slate-300">
            {location.coordinates
              ? 'Requests go to the available professionals nearest this address.'
              : 'A typed address without a map position: requests go to any available professional of the trade.'}
          </p>
          <div className="flex flex-wrap gap-3">
            <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
              <Pencil aria-hidden="true" className="size-4" />
              Change
            </Button>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                onChange(null);
                setText('');
                setCoordinates(null);
                setEditing(true);
              }}
            >
              Clear
            </Button>
          </div>
        </div>
      )}
    </section>
  );
}

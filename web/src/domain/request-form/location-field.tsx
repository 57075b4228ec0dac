import { useQuery } from '@tanstack/react-query';
import { LoaderCircle, LocateFixed } from 'lucide-react';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { AddressSuggestion, GeocodeResult } from '../../../../shared/schemas/job';
import { inputClasses } from '../../components/ui/field';
import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/toast-store';
import { api, apiGetKey } from '../../lib/api';
import { cn } from '../../lib/cn';
import {
  ADDRESS_LIST_CLOSE_DELAY_MS,
  ADDRESS_SEARCH_DEBOUNCE_MS,
  ADDRESS_SUGGESTION_LIMIT,
  GPS_NOT_SUPPORTED_TOAST,
  REQUEST_GEOLOCATION_OPTIONS,
  addressSearchQuery,
  formatAddress,
  geolocationErrorToast,
  gpsOutcome,
  nextActiveIndex,
} from './address';
import { queryKeys } from '../../lib/query-keys';
import type { KnownCoordinates } from './request-form';

/** The request schema's limit on location; a longer display name is shortened to the formatted address. */
const LOCATION_MAX = 200;

/** A failed search is silent: it reads as no suggestions, the same as an unreachable geocoder. */
async function searchAddresses(query: string, signal: AbortSignal): Promise<AddressSuggestion[]> {
  try {
    const result = await apiGetKey(queryKeys.addressSearch(query), { signal });
    return (result?.suggestions ?? []).slice(0, ADDRESS_SUGGESTION_LIMIT);
  } catch (error) {
    if (signal.aborted) throw error;
    return [];
  }
}

/** The reverse lookup's answer, or null when it could not be had (the fix is kept either way). */
async function reverseLookup(latitude: number, longitude: number): Promise<GeocodeResult | null> {
  try {
    return await api('GET /api/geocode/reverse', { query: { lat: latitude, lng: longitude } });
  } catch {
    return null;
  }
}

function suggestionText(suggestion: AddressSuggestion): string {
  const full = suggestion.displayName.trim();
  return full && full.length <= LOCATION_MAX ? full : formatAddress(suggestion);
}

/**
 * The location box: free text, address search as an ARIA combobox (arrow keys, Enter, Escape), and
 * "Use my location". `onType` is a hand edit (the coordinates no longer match the text); `onLocate`
 * sets the text together with the position it stands for: a chosen suggestion, a GPS fix with its
 * looked-up address, or, when the lookup found none, the customer's own typing over a GPS fix.
 */
export function LocationField({
  id,
  value,
  error,
  inputRef,
  onType,
  onLocate,
  label = 'Location',
  name = 'location',
}: {
  id: string;
  label?: string;
  /** The input's form name; the request form's is its field's. */
  name?: string;
  value: string;
  error?: string;
  inputRef: (el: HTMLInputElement | null) => void;
  onType: (text: string) => void;
  onLocate: (text: string, coordinates: KnownCoordinates) => void;
}) {
  const listId = `${id}-suggestions`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;

  // Only typing searches: filling the box from a suggestion or GPS must not open the list again.
  const [typedQuery, setTypedQuery] = useState<string | null>(null);
  const [debouncedQuery, setDebouncedQuery] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [locating, setLocating] = useState(false);
  // A GPS fix whose address could not be looked up: kept under whatever is typed next, because
  // it still finds the nearest pros, until a suggestion or a new fix replaces it.
  const [positionOnly, setPositionOnly] = useState<KnownCoordinates | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const mounted = useRef(true);
  const input = useRef<HTMLInputElement | null>(null);
  // The text as it is when a slow lookup answers, not as it was when the button was pressed.
  const latestValue = useRef(value);
  useEffect(() => {
    latestValue.current = value;
  }, [value]);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      clearTimeout(closeTimer.current);
    };
  }, []);

  useEffect(() => {
    const timer = setTimeout(() => setDebouncedQuery(typedQuery), ADDRESS_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typedQuery]);

  const search = useQuery({
    queryKey: queryKeys.addressSearch(debouncedQuery),
    queryFn: ({ signal }) => searchAddresses(debouncedQuery!, signal),
    enabled: debouncedQuery !== null,
  });

  // Answers for an older text are not shown while the newer one is still being typed or fetched.
  const answered = open && typedQuery !== null && typedQuery === debouncedQuery && search.isSuccess;
  const suggestions = answered ? search.data : [];
  const expanded = suggestions.length > 0;
  const noResults = answered && suggestions.length === 0;
  const activeIndex = active < suggestions.length ? active : -1;

  const type = (text: string) => {
    if (positionOnly) onLocate(text, positionOnly);
    else onType(text);
    setNote(null);
    const query = addressSearchQuery(text);
    setTypedQuery(query);
    setActive(-1);
    setOpen(query !== null);
  };

  const choose = (suggestion: AddressSuggestion) => {
    setPositionOnly(null);
    setNote(null);
    onLocate(suggestionText(suggestion), { latitude: suggestion.latitude, longitude: suggestion.longitude, source: 'suggestion' });
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') {
      if (open) {
        event.preventDefault();
        setOpen(false);
        setActive(-1);
      }
      return;
    }
    if (event.key === 'Enter') {
      const picked = expanded && activeIndex >= 0 ? suggestions[activeIndex] : undefined;
      // Enter without a highlighted suggestion submits the form, as in any text box.
      if (picked) {
        event.preventDefault();
        choose(picked);
      }
      return;
    }
    if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && !open && typedQuery !== null) {
      event.preventDefault();
      setOpen(true);
      return;
    }
    const next = nextActiveIndex(event.key, activeIndex, suggestions.length);
    if (next !== undefined && expanded) {
      event.preventDefault();
      setActive(next);
    }
  };

  const onBlur = () => {
    clearTimeout(closeTimer.current);
    closeTimer.current = setTimeout(() => {
      setOpen(false);
      setActive(-1);
    }, ADDRESS_LIST_CLOSE_DELAY_MS);
  };

  const onFocus = () => clearTimeout(closeTimer.current);

  const locateMe = () => {
    if (!('geolocation' in navigator) || !navigator.geolocation) {
      toast({ ...GPS_NOT_SUPPORTED_TOAST, variant: 'destructive' });
      return;
    }
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      (position) => {
        const { latitude, longitude } = position.coords;
        void reverseLookup(latitude, longitude).then((found) => {
          if (!mounted.current) return;
          setLocating(false);
          const outcome = gpsOutcome(latitude, longitude, found, latestValue.current);
          onLocate(outcome.text, outcome.coordinates);
          setOpen(false);
          setPositionOnly(outcome.note ? outcome.coordinates : null);
          setNote(outcome.note);
          if (!outcome.note) {
            toast({ title: 'Location Detected', description: outcome.text });
            return;
          }
          input.current?.focus();
        });
      },
      (failure) => {
        if (!mounted.current) return;
        setLocating(false);
        toast({ ...geolocationErrorToast(failure.code), variant: 'destructive' });
      },
      REQUEST_GEOLOCATION_OPTIONS,
    );
  };

  const noteId = `${id}-note`;
  const describedBy = [hintId, note ? noteId : undefined, error ? errorId : undefined].filter(Boolean).join(' ');
  const optionId = (index: number) => `${listId}-${index}`;

  return (
    <div>
      <div className="mb-1.5 flex flex-wrap items-end justify-between gap-2">
        <label htmlFor={id} className="block text-sm font-semibold text-slate-100">
          {label}
        </label>
        <Button variant="ghost" size="sm" onClick={locateMe} disabled={locating}>
          {locating ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <LocateFixed aria-hidden="true" className="size-4" />}
          Use my location
        </Button>
      </div>
      <div className="relative">
        <input
          id={id}
          ref={(el) => {
            input.current = el;
            inputRef(el);
          }}
          name={name}
          type="text"
          autoComplete="street-address"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded && activeIndex >= 0 ? optionId(activeIndex) : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          value={value}
          onChange={(event) => type(event.target.value)}
          onKeyDown={onKeyDown}
          onBlur={onBlur}
          onFocus={onFocus}
          className={cn(inputClasses, error ? 'border-red-400 ring-1 ring-red-400' : 'border-slate-300')}
        />
        <ul
          id={listId}
          role="listbox"
          aria-label="Address suggestions"
          hidden={!expanded}
          className="absolute inset-x-0 top-full z-20 mt-1 max-h-72 overflow-auto rounded-lg bg-white py-1 text-slate-900 shadow-xl ring-1 ring-slate-300"
        >
          {suggestions.map((suggestion, index) => (
            <li
              key={`${suggestion.latitude},${suggestion.longitude},${suggestion.displayName}`}
              id={optionId(index)}
              role="option"
              aria-selected={index === activeIndex}
              // Keeps focus in the box, so the click lands before the blur closes the list.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(suggestion)}
              onMouseEnter={() => setActive(index)}
              className={cn('cursor-pointer px-3 py-2 text-sm', index === activeIndex ? 'bg-amber-100' : undefined)}
            >
              {suggestion.displayName}
            </li>
          ))}
        </ul>
      </div>
      <p id={hintId} className="mt-1 text-sm text-slate-300">
        Type at least 3 characters to search addresses, or use your location.
      </p>
      <p role="status" className={noResults ? 'mt-1 text-sm font-medium text-slate-100' : 'sr-only'}>
        {noResults
          ? 'No addresses found'
          : expanded
            ? `${suggestions.length} address${suggestions.length === 1 ? '' : 'es'} found, use the arrow keys to choose`
            : ''}
      </p>
      <p role="status" className="sr-only">
        {locating ? 'Finding your location...' : ''}
      </p>
      {/* Its own live region: focus moves to the box, and the reason must be heard with it. */}
      <p id={noteId} role="status" className={note ? 'mt-1 text-sm font-medium text-amber-200' : 'sr-only'}>
        {note ?? ''}
      </p>
      {error ? (
        <p id={errorId} className="mt-1 text-sm font-medium text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}

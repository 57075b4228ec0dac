import { CircleCheck, FileUp, X } from 'lucide-react';
import type { ChangeEvent, Ref } from 'react';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';

export type UploadState =
  | { status: 'idle' }
  | { status: 'uploading'; name: string; percent: number }
  | { status: 'done'; name: string; key: string }
  | { status: 'failed'; name: string };

function formatPercent(percent: number): string {
  return `${Math.round(percent)}%`;
}

/**
 * An optional document: choose a file, watch it upload (real bytes sent), remove or replace it.
 * The message under it carries the upload's failure or the form's validation message.
 */
export function FileUploadField({
  id,
  label,
  hint,
  accept,
  state,
  error,
  disabled,
  inputRef,
  onSelect,
  onRemove,
}: {
  id: string;
  label: string;
  hint: string;
  accept: string;
  state: UploadState;
  error?: string;
  disabled?: boolean;
  inputRef?: Ref<HTMLInputElement>;
  onSelect: (file: File) => void;
  onRemove: () => void;
}) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const statusId = `${id}-status`;
  const describedBy = [hintId, state.status !== 'idle' ? statusId : '', error ? errorId : ''].filter(Boolean).join(' ');

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared so choosing the same file again (after a failure) fires another change.
    event.target.value = '';
    if (file) onSelect(file);
  };

  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-semibold text-slate-100">
        {label}
      </label>
      <div
        className={cn(
          'rounded-lg border border-dashed bg-slate-950/40 p-4',
          error ? 'border-red-400' : 'border-slate-500',
        )}
      >
        <div className="flex flex-wrap items-center gap-3">
          <FileUp aria-hidden="true" className="size-5 shrink-0 text-amber-300" />
          <input
            ref={inputRef}
            id={id}
            type="file"
            accept={accept}
            disabled={disabled || state.status === 'uploading'}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            onChange={onChange}
            className={cn(
              'min-w-0 flex-1 text-sm text-slate-200 file:mr-3 file:cursor-pointer file:rounded-md file:border-0 file:bg-white file:px-3 file:py-2 file:text-sm file:font-semibold file:text-slate-900 hover:file:bg-slate-200',
              'rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400 focus-visible:ring-offset-2 focus-visible:ring-offset-slate-900',
              'disabled:cursor-not-allowed disabled:opacity-60',
            )}
          />
        </div>

        {state.status === 'uploading' ? (
          <div id={statusId} className="mt-3">
            <div className="mb-1 flex justify-between gap-3 text-sm text-slate-200">
              <span className="truncate">Uploading {state.name}…</span>
              <span aria-hidden="true">{formatPercent(state.percent)}</span>
            </div>
            <div
              role="progressbar"
              aria-label={`Uploading ${state.name}`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(state.percent)}
              className="h-2 overflow-hidden rounded-full bg-slate-700"
            >
              <div className="h-full rounded-full bg-amber-400 transition-[width] duration-200" style={{ width: `${state.percent}%` }} />
            </div>
          </div>
        ) : null}

        {state.status === 'done' ? (
          <div id={statusId} className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm">
            <span className="inline-flex min-w-0 items-center gap-2 text-green-300">
              <CircleCheck aria-hidden="true" className="size-4 shrink-0" />
              <span className="truncate">Uploaded {state.name}</span>
            </span>
            <Button variant="ghost" size="sm" onClick={onRemove} disabled={disabled} aria-label={`Remove ${state.name}`}>
              <X aria-hidden="true" className="size-4" />
              Remove
            </Button>
          </div>
        ) : null}

        {state.status === 'failed' ? (
          <div id={statusId} className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-200">
            <span className="truncate">{state.name} was not uploaded.</span>
            <Button variant="ghost" size="sm" onClick={onRemove} disabled={disabled}>
              <X aria-hidden="true" className="size-4" />
              Clear
            </Button>
          </div>
        ) : null}
      </div>
      <p id={hintId} className="mt-1 text-sm text-slate-300">
        {hint}
      </p>
      {error ? (
        <p id={errorId} className="mt-1 text-sm font-medium text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}

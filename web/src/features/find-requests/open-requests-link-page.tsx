import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { RequestsLinkOpened, RequestsLinkPreview } from '../../../../shared/schemas/requests-link';
import { PageHeader } from '../../components/layout/page-header';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FormAlert } from '../../components/ui/form-alert';
import { Loading } from '../../components/ui/load-state';
import { api, ApiError, errorMessage, NETWORK_ERROR_TEXT } from '../../lib/api';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';
import { gatheredSummary, linkedRequestLine, requestLine, tokenFromHash } from './requests-link';

/**
 * Where a mailed "Find my requests" link lands. The secret is in the fragment (#token=), which no
 * server receives; it is taken from the address bar at once (history.replaceState), so it is not
 * left in the history or shown to someone looking at the screen. Landing here spends nothing: the
 * page reads which requests the link brings and asks first, since a link can be sent by someone
 * else to be opened here. Only the button spends it.
 */
export default function OpenRequestsLinkPage() {
  useDocumentTitle('Your requests');
  const queryClient = useQueryClient();
  const preview = useMutation({
    mutationFn: (token: string) => api('POST /api/customer/requests-link/preview', { body: { token } }),
  });
  const open = useMutation({
    mutationFn: (token: string) => api('POST /api/customer/requests-link/open', { body: { token } }),
    // The browser that asked is the address's customer now: whatever it read before is out of date.
    onSuccess: (answer) => void (answer.here ? queryClient.invalidateQueries() : undefined),
  });
  const { mutate: read } = preview;
  const started = useRef(false);
  const [token, setToken] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);

  useEffect(() => {
    // Once: a second read would only count against this connection's reads.
    if (started.current) return;
    started.current = true;
    const found = tokenFromHash(window.location.hash);
    window.history.replaceState(window.history.state, '', window.location.pathname);
    if (found) {
      setToken(found);
      read(found);
    } else setMissing(true);
  }, [read]);

  const failed = open.isError ? open.error : preview.isError ? preview.error : null;
  const gone = failed instanceof ApiError && (failed.status === 410 || failed.status === 400 || failed.status === 429);
  const failure = missing
    ? 'This link is not complete. Open it from the mail again, or send a new link.'
    : failed
      ? gone
        ? (errorMessage(failed) ?? 'This link has been used or has expired.')
        : NETWORK_ERROR_TEXT
      : null;

  return (
    <div className="mx-auto max-w-2xl px-4 py-12">
      <PageHeader title="Your requests" />
      <Card>
        {open.isSuccess ? (
          <Opened answer={open.data} />
        ) : failure ? (
          <div className="grid gap-4">
            <FormAlert title="We could not open this link" message={failure} />
            <Link to={paths.findRequests} className="font-semibold text-amber-300 underline">
              Send a new link
            </Link>
          </div>
        ) : preview.isSuccess && token ? (
          <Confirm preview={preview.data} busy={open.isPending} onConfirm={() => open.mutate(token)} />
        ) : (
          <Loading label="Finding your requests..." rows={2} rowClassName="h-12 w-full" />
        )}
      </Card>
    </div>
  );
}

function Confirm({ preview, busy, onConfirm }: { preview: RequestsLinkPreview; busy: boolean; onConfirm: () => void }) {
  return (
    <div className="grid gap-4">
      <h2 className="text-lg font-semibold text-white">Requests made with {preview.email}</h2>
      {preview.requests.length ? (
        <ul className="grid gap-2" aria-label={`Requests made with ${preview.email}`}>
          {preview.requests.map((request) => (
            <li key={request.number} className="rounded-lg border border-slate-700 p-3">
              <p className="font-semibold text-white">
                {request.service} #{request.number}
              </p>
              <p className="text-sm text-slate-200">{linkedRequestLine(request)}</p>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-slate-200">No requests made with this address are left to show.</p>
      )}
      {preview.askedHere ? (
        <p className="text-slate-200">
          If these are yours, this browser will list them under Your Requests, beside the requests it already has, and you can pay,
          cancel and rate them here.
        </p>
      ) : (
        <p className="text-slate-200">
          This link was asked for in another browser, so this one stays as it is: its own requests stay listed, and what you request
          here stays with it. You will see these requests once, each with its tracking link. To list them under Your Requests here,{' '}
          <Link to={paths.findRequests} className="font-semibold text-amber-300 underline">
            ask for a link from this browser
          </Link>
          .
        </p>
      )}
      <p className="text-sm text-slate-300">The link works once. Nothing has changed yet.</p>
      <div className="flex flex-wrap items-center gap-4">
        <Button onClick={onConfirm} disabled={busy}>
          {preview.askedHere ? 'Show these requests in this browser' : 'Show these requests once'}
        </Button>
        <Link to={paths.home} className="font-semibold text-amber-300 underline">
          Not mine: leave this browser as it is
        </Link>
      </div>
    </div>
  );
}

function Opened({ answer }: { answer: RequestsLinkOpened }) {
  if (!answer.here) {
    return (
      <div className="grid gap-4">
        <FormAlert
          tone="success"
          title="Follow these requests by their tracking links"
          message="This browser is as it was: they are not added to Your Requests here. Keep a tracking link to come back to it."
        />
        <ul className="grid gap-3" aria-label="Requests to follow">
          {answer.requests.map((request) => (
            <li key={request.id} className="rounded-lg border border-slate-700 p-3">
              <Link to={paths.track(request.id)} className="font-semibold text-amber-300 underline">
                {request.service} #{request.number}
              </Link>
              <p className="text-sm text-slate-200">{linkedRequestLine(request)}</p>
            </li>
          ))}
        </ul>
        <Link to={paths.home} className="font-semibold text-amber-300 underline">
          Go to Your Requests
        </Link>
      </div>
    );
  }
  return (
    <div className="grid gap-4">
      <FormAlert tone="success" title="This browser now has your requests" message={gatheredSummary(answer)} />
      {answer.requests.length ? (
        <ul className="grid gap-3" aria-label="Your requests">
          {answer.requests.map((request) => (
            <li key={request.id} className="rounded-lg border border-slate-700 p-3">
              <Link to={paths.track(request.id)} className="font-semibold text-amber-300 underline">
                {request.service} #{request.number}
              </Link>
              <p className="text-sm text-slate-200">{requestLine(request)}</p>
            </li>
          ))}
        </ul>
      ) : null}
      <Link to={paths.home} className="font-semibold text-amber-300 underline">
        Go to Your Requests
      </Link>
    </div>
  );
}

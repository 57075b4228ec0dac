import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { RequestsLinkOpened } from '../../../../shared/schemas/requests-link';
import { PageHeader } from '../../components/layout/page-header';
import { Card } from '../../components/ui/card';
import { FormAlert } from '../../components/ui/form-alert';
import { Loading } from '../../components/ui/load-state';
import { api, ApiError, errorMessage, NETWORK_ERROR_TEXT } from '../../lib/api';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';
import { gatheredSummary, requestLine, tokenFromHash } from './requests-link';

/**
 * Where a mailed "Find my requests" link lands. The secret is in the fragment (#token=), which no
 * server receives; it is taken from the address bar at once (history.replaceState), so it is not
 * left in the history or shown to someone looking at the screen, then spent with one call.
 */
export default function OpenRequestsLinkPage() {
  useDocumentTitle('Your requests');
  const queryClient = useQueryClient();
  const open = useMutation({
    mutationFn: (token: string) => api('POST /api/customer/requests-link/open', { body: { token } }),
    // This browser is another customer now: whatever it read as the one before is out of date.
    onSuccess: () => void queryClient.invalidateQueries(),
  });
  const { mutate } = open;
  const started = useRef(false);
  const [missing, setMissing] = useState(false);

  useEffect(() => {
    // Once: the link works once, and a second call would only be told so.
    if (started.current) return;
    started.current = true;
    const token = tokenFromHash(window.location.hash);
    window.history.replaceState(window.history.state, '', window.location.pathname);
    if (token) mutate(token);
    else setMissing(true);
  }, [mutate]);

  const gone = open.error instanceof ApiError && (open.error.status === 410 || open.error.status === 400);
  const failure = missing
    ? 'This link is not complete. Open it from the mail again, or send a new link.'
    : open.isError
      ? gone
        ? (errorMessage(open.error) ?? 'This link has been used or has expired.')
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
        ) : (
          <Loading label="Finding your requests..." rows={2} rowClassName="h-12 w-full" />
        )}
      </Card>
    </div>
  );
}

function Opened({ answer }: { answer: RequestsLinkOpened }) {
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

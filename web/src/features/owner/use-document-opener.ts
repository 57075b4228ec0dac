import { useState } from 'react';
import { api } from '../../lib/api';

/**
 * Opens one application document (GET /api/admin/applications/{id}/documents/{document}, a
 * short-lived link) in a new tab. The tab opens at the click, so no popup blocker stops it, and
 * goes to the link once it is known.
 */
export function useDocumentOpener(applicationId: string) {
  const [opening, setOpening] = useState<string>();
  const [failure, setFailure] = useState<string>();

  const open = async (document: string, label: string) => {
    setFailure(undefined);
    setOpening(document);
    const tab = window.open('', '_blank');
    try {
      const { url } = await api('GET /api/admin/applications/{id}/documents/{document}', { params: { id: applicationId, document } });
      if (tab) {
        tab.opener = null;
        tab.location.href = url;
      } else {
        window.open(url, '_blank', 'noopener');
      }
    } catch {
      tab?.close();
      setFailure(`Failed to open the ${label}`);
    } finally {
      setOpening(undefined);
    }
  };

  return { open, opening, failure, clearFailure: () => setFailure(undefined) };
}

import { useState } from 'react';
import type { DocumentDownload, DownloadMode } from '../../../../shared/schemas/documents';
import { toast } from '../../components/ui/toast-store';
import { shownMessage } from './document-display';

/**
 * View and Download of a compliance document: both ask for a short-lived link (the server logs
 * every one) and open it in a new tab, leaving the dashboard where it was; the link says inline or attachment. The tab opens
 * at the click, so no popup blocker stops it, and goes to the link once it is known: asking ahead
 * of time would log accesses nobody made and hand out links that expire unused.
 */
export function useDocumentLink(fetchLink: (id: string, mode: DownloadMode) => Promise<DocumentDownload>) {
  const [opening, setOpening] = useState<{ id: string; mode: DownloadMode }>();

  const open = async (id: string, mode: DownloadMode) => {
    setOpening({ id, mode });
    const tab = window.open('', '_blank');
    try {
      const { downloadUrl, filename } = await fetchLink(id, mode);
      if (tab) {
        tab.opener = null;
        tab.location.href = downloadUrl;
      } else {
        window.open(downloadUrl, '_blank', 'noopener');
      }
      toast({ title: 'Download Started', description: mode === 'view' ? `${filename} opens in a new tab.` : `${filename} is downloading.` });
    } catch (error) {
      tab?.close();
      toast({ title: 'Download Failed', description: shownMessage(error, 'Download failed'), variant: 'destructive' });
    } finally {
      setOpening(undefined);
    }
  };

  return { open, opening };
}

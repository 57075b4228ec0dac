import type { DocumentStatus } from '../../../../shared/schemas/document-rules';
import { Badge } from '../../components/ui/badge';
import { statusLabels, statusTones } from './document-display';

export function DocumentStatusBadge({ status }: { status: DocumentStatus }) {
  return <Badge tone={statusTones[status]}>{statusLabels[status]}</Badge>;
}

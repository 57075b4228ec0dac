import { routeByName } from '../shared/routes';
import { companyApplicationSchema } from '../shared/schemas/applications';
import { requireUploaded } from './lib/applications';
import { applicationsRepo } from './lib/data/applications';
import { reply, http } from './lib/http';
import { newId } from './lib/ids';
import { logger } from './lib/logger';
import { takeCreation } from './lib/creation-limits';

export const handler = http(routeByName('submit-company-application'), companyApplicationSchema, async ({ body, event }) => {
  await takeCreation('application', event);
  await requireUploaded(
    { businessLicenseUrl: body.businessLicenseUrl, insuranceCertificateUrl: body.insuranceCertificateUrl },
    'company-documents',
    'Upload the document again',
  );
  const application = await applicationsRepo.createCompanyApplication({
    id: newId(),
    submittedAt: new Date().toISOString(),
    application: body,
  });
  logger.info('Company application received', { applicationId: application.id });
  return reply(201, {
    id: application.id,
    status: 'pending',
    message: 'Application submitted. We will contact you within 2-3 business days.',
  });
});

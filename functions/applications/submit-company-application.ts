import { routeByName } from '../../shared/routes';
import { companyApplicationSchema } from '../../shared/schemas/applications';
import { fileUploads } from './applications';
import { applicationsRepo } from './data/applications';
import { reply, http } from '../common/http';
import { newId } from '../common/ids';
import { logger } from '../common/logger';
import { newCompanyApplication } from '../owner/owner-events';
import { takeCreation } from '../common/creation-limits';
import { refuseSuppressedAddresses } from '../mail/deliverable';

export const handler = http(routeByName('submit-company-application'), companyApplicationSchema, async ({ body, event }) => {
  await refuseSuppressedAddresses({ emailAddress: body.emailAddress });
  await takeCreation('application', event);
  await applicationsRepo.requireEmailFree('company', body.emailAddress);
  const id = newId();
  const { businessLicenseUrl, insuranceCertificateUrl } = body;
  const application = await fileUploads(id, { businessLicenseUrl, insuranceCertificateUrl }, 'company-documents', 'Upload the document again', (filed) =>
    applicationsRepo.createCompanyApplication({
      id,
      submittedAt: new Date().toISOString(),
      application: {
        ...body,
        businessLicenseUrl: businessLicenseUrl && filed(businessLicenseUrl),
        insuranceCertificateUrl: insuranceCertificateUrl && filed(insuranceCertificateUrl),
      },
    }),
  );
  logger.info('Company application received', { applicationId: application.id });
  // Only a call whose conditional put filed it gets here: a retry meets the taken email (409).
  await newCompanyApplication(application);
  return reply(201, {
    id: application.id,
    status: 'pending',
    message: 'Application submitted. We will contact you within 2-3 business days.',
  });
});

export type { PendingWorkerView, CompanyApplicationView, JobAdminView, Analytics } from './views/people';

/** The owner's answers: one definition for the handlers and the screens. */
export type WorkerDocument = 'idFront' | 'idBack' | 'selfie';
export type CompanyDocument = 'businessLicense' | 'insuranceCertificate';

export type { PendingWorkerView, CompanyApplicationView, JobAdminView, Analytics } from './views/people';
export type { AnalyticsGrouping, MoneyPeriod, ProFigures } from './views/analytics';
export { analyticsGroupings, DEFAULT_ANALYTICS_DAYS, funnelStepNames, MAX_ANALYTICS_DAYS, MAX_EXPORT_ROWS } from './views/analytics';

/** The owner's answers: one definition for the handlers and the screens. */
export type WorkerDocument = 'idFront' | 'idBack' | 'selfie';
export type CompanyDocument = 'businessLicense' | 'insuranceCertificate';

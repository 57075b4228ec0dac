import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import { PublicLayout } from './layout/public-layout';
import { patterns } from '../lib/paths';
import { RedirectTo } from './redirect';
// The landing page ships in the entry chunk (it is the first paint of '/', and one chunk
// compresses better than two); every other screen is its own lazy chunk, loaded when first visited.
import LandingPage from '../features/home/landing-page';

// TanStack Query comes with the screens that read the API, never with the home page's first load.
const QueryLayout = lazy(() => import('../lib/query-client'));
const ServicesPage = lazy(() => import('../features/services/services-page'));
const ServiceDetailPage = lazy(() => import('../features/services/service-detail-page'));
const BookPage = lazy(() => import('../features/booking/book-page'));
const TrackPage = lazy(() => import('../features/tracking/track-page'));
const ContactPage = lazy(() => import('../features/contact/contact-page'));
const InsurancePage = lazy(() => import('../features/marketing/insurance-page'));
const WorkersPage = lazy(() => import('../features/marketing/workers-page'));
const DownloadPage = lazy(() => import('../features/download/download-page'));
const NotFoundPage = lazy(() => import('../features/not-found/not-found-page'));
const CompanyApplicationPage = lazy(() => import('../features/company-application/company-application-page'));
const CompanyApplicationStatusPage = lazy(() => import('../features/company-application/company-application-status-page'));
// The owner screens share one session provider, loaded with them (never with the landing page).
const AuthLayout = lazy(() => import('../lib/auth').then((m) => ({ default: m.AuthLayout })));
const OwnerSetupPage = lazy(() => import('../features/owner/setup-page'));
const OwnerLoginPage = lazy(() => import('../features/owner/login-page'));
const OwnerDashboardPage = lazy(() => import('../features/owner/dashboard-page'));
const OwnerJobPage = lazy(() => import('../features/owner/job-page'));
const ChangePasswordPage = lazy(() => import('../features/owner/change-password-page'));
const WorkerApplicationPage = lazy(() => import('../features/worker-application/worker-application-page'));
const WorkerLoginPage = lazy(() => import('../features/worker/login-page'));
const WorkerSignupPage = lazy(() => import('../features/worker/signup-page'));
const WorkerDashboardPage = lazy(() => import('../features/worker/dashboard-page'));
const WorkerProfilePage = lazy(() => import('../features/worker/profile-page'));
const WorkerTypePage = lazy(() => import('../features/worker/worker-type-page'));
const WorkerJobPage = lazy(() => import('../features/worker/job-detail-page'));
const WorkerEarningsPage = lazy(() => import('../features/worker/earnings-page'));
const ClientDashboardPage = lazy(() => import('../features/client-dashboard/client-dashboard-page'));
const RatePage = lazy(() => import('../features/rating/rate-page'));
const InvoicesPage = lazy(() => import('../features/invoices/invoices-page'));
const PaymentSuccessPage = lazy(() => import('../features/payments/payment-success-page'));
const PaymentCancelledPage = lazy(() => import('../features/payments/payment-cancelled-page'));
const FindRequestsPage = lazy(() => import('../features/find-requests/find-requests-page'));
const OpenRequestsLinkPage = lazy(() => import('../features/find-requests/open-requests-link-page'));
const ForgotPasswordPage = lazy(() => import('../features/password-reset/forgot-password-page'));
const ResetPasswordPage = lazy(() => import('../features/password-reset/reset-password-page'));

const redirects: readonly { from: string; to: string }[] = [
  { from: patterns.applyContractor, to: patterns.applyWorker },
  { from: patterns.contractors, to: patterns.workers },
  { from: patterns.login, to: patterns.adminLogin },
  { from: patterns.register, to: patterns.workerApply },
  { from: patterns.dashboard, to: patterns.adminLogin },
];

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<PublicLayout />}>
        <Route path={patterns.home} element={<LandingPage />} />
        <Route element={<QueryLayout />}>
          <Route path={patterns.services} element={<ServicesPage />} />
          <Route path={patterns.service} element={<ServiceDetailPage />} />
          <Route path={patterns.book} element={<BookPage />} />
          <Route path={patterns.track} element={<TrackPage />} />
          <Route path={patterns.findRequests} element={<FindRequestsPage />} />
          <Route path={patterns.findRequestsOpen} element={<OpenRequestsLinkPage />} />
          <Route path={patterns.contact} element={<ContactPage />} />
          <Route path={patterns.applyCompany} element={<CompanyApplicationPage />} />
          <Route path={patterns.companyApplicationStatus} element={<CompanyApplicationStatusPage />} />
          <Route path={patterns.applyWorker} element={<WorkerApplicationPage />} />
          <Route path={patterns.workerApply} element={<WorkerApplicationPage />} />
          <Route path={patterns.workerLogin} element={<WorkerLoginPage />} />
          <Route path={patterns.workerSignup} element={<WorkerSignupPage />} />
          <Route path={patterns.forgotPassword} element={<ForgotPasswordPage />} />
          <Route path={patterns.resetPassword} element={<ResetPasswordPage />} />
          <Route path={patterns.workerDashboard} element={<WorkerDashboardPage />} />
          <Route path={patterns.workerDashboardAlias} element={<WorkerDashboardPage />} />
          <Route path={patterns.workerProfile} element={<WorkerProfilePage />} />
          <Route path={patterns.workerType} element={<WorkerTypePage />} />
          <Route path={patterns.workerJob} element={<WorkerJobPage />} />
          <Route path={patterns.workerEarnings} element={<WorkerEarningsPage />} />
          <Route path={patterns.clientDashboard} element={<ClientDashboardPage />} />
          <Route path={patterns.customer} element={<ClientDashboardPage />} />
          <Route path={patterns.rate} element={<RatePage />} />
          <Route path={patterns.invoices} element={<InvoicesPage />} />
          <Route path={patterns.paymentSuccess} element={<PaymentSuccessPage />} />
          <Route path={patterns.paymentSuccessAlias} element={<PaymentSuccessPage />} />
          <Route path={patterns.paymentCancelled} element={<PaymentCancelledPage />} />
          <Route path={patterns.paymentCancelAlias} element={<PaymentCancelledPage />} />
          <Route path={patterns.insurance} element={<InsurancePage />} />
          <Route path={patterns.workers} element={<WorkersPage />} />
          <Route path={patterns.download} element={<DownloadPage />} />
          <Route element={<AuthLayout />}>
            <Route path={patterns.adminSetup} element={<OwnerSetupPage />} />
            <Route path={patterns.adminLogin} element={<OwnerLoginPage />} />
            <Route path={patterns.admin} element={<OwnerDashboardPage />} />
            <Route path={patterns.adminJob} element={<OwnerJobPage />} />
            <Route path={patterns.changePassword} element={<ChangePasswordPage />} />
          </Route>
        </Route>
        {redirects.map(({ from, to }) => (
          <Route key={from} path={from} element={<RedirectTo to={to} />} />
        ))}
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

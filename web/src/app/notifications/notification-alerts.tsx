import { useEffect } from 'react';
import { isLiveScoped, notificationStore } from '../../lib/realtime';
import { toast } from '../../components/ui/toast-store';
import { alertPlan } from './notification-rules';
import { beep } from './sound';

function permission(): NotificationPermission | 'unsupported' {
  return typeof window !== 'undefined' && 'Notification' in window ? window.Notification.permission : 'unsupported';
}

/**
 * Toast, sound and browser notification for each new live notification (never for the history a
 * batch or poll brings). A notification about a job the screen already toasts live events for
 * (the customer's request list) stays in the bell only.
 */
export function NotificationAlerts() {
  useEffect(
    () =>
      notificationStore().onArrival((item) => {
        if (isLiveScoped(item.jobId)) return;
        const plan = alertPlan(item, permission());
        toast(plan.toast);
        if (plan.sound) beep(item.priority === 'critical');
        if (plan.browserNotification) {
          try {
            const shown = new window.Notification(item.title, { body: item.message, tag: item.id });
            shown.onclick = () => {
              window.focus();
              shown.close();
            };
          } catch {
            // Some browsers (Android Chrome) only show notifications from a service worker.
          }
        }
      }),
    [],
  );
  return null;
}

import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { errorMessage } from '../../lib/api';
import {
  apiPushServer,
  browserPushPlatform,
  currentPushState,
  disablePush,
  enablePush,
  pushTexts,
  sendTestPush,
  type PushPlatform,
  type PushServer,
  type PushState,
} from '../../lib/push';
import { readWorkerToken, subscribeWorkerToken } from '../../lib/worker-token';
import { toast } from '../../components/ui/toast-store';

export type PushAction = 'enable' | 'disable' | 'test';

export interface PushControlModel {
  /** 'checking' until the browser and the server have been asked. */
  state: PushState | 'checking';
  busy: PushAction | null;
  enable(): Promise<void>;
  disable(): Promise<void>;
  test(): Promise<void>;
}

/**
 * The push control's behaviour: the state on arrival (checked again when a worker signs in or
 * out, since subscriptions belong to whoever is signed in), and the three actions, each with its
 * toasts. The service worker is registered only by `enable`, or found if push was already on.
 */
export function usePushControl(deps?: { platform?: PushPlatform; server?: PushServer }): PushControlModel {
  const [platform] = useState(() => deps?.platform ?? browserPushPlatform());
  const [server] = useState(() => deps?.server ?? apiPushServer());
  const [state, setState] = useState<PushState | 'checking'>('checking');
  const [busy, setBusy] = useState<PushAction | null>(null);
  const workerToken = useSyncExternalStore(subscribeWorkerToken, readWorkerToken, () => null);

  const refresh = useCallback(async () => {
    try {
      setState(await currentPushState(platform, server));
    } catch {
      setState(platform.supported ? (platform.permission() === 'denied' ? 'blocked' : 'available') : 'unsupported');
    }
  }, [platform, server]);

  useEffect(() => {
    let live = true;
    currentPushState(platform, server)
      .catch(() => (platform.supported ? 'available' : 'unsupported') as PushState)
      .then((next) => {
        if (live) setState(next);
      });
    return () => {
      live = false;
    };
  }, [platform, server, workerToken]);

  const enable = useCallback(async () => {
    setBusy('enable');
    try {
      setState(await enablePush(platform, server));
      toast({ title: pushTexts.enabled, description: 'This device will show notifications about your jobs.' });
    } catch (error) {
      toast({ title: pushTexts.enableFailed, description: errorMessage(error) ?? 'Please try again.', variant: 'destructive' });
      await refresh();
    } finally {
      setBusy(null);
    }
  }, [platform, server, refresh]);

  const disable = useCallback(async () => {
    setBusy('disable');
    try {
      setState(await disablePush(platform, server));
      toast({ title: pushTexts.disabled });
    } catch (error) {
      toast({ title: pushTexts.disableFailed, description: errorMessage(error) ?? 'Please try again.', variant: 'destructive' });
      await refresh();
    } finally {
      setBusy(null);
    }
  }, [platform, server, refresh]);

  const test = useCallback(async () => {
    setBusy('test');
    try {
      await sendTestPush(server);
      toast({ title: pushTexts.testSent, description: 'It should appear on this device in a moment.' });
    } catch (error) {
      toast({ title: pushTexts.testFailed, description: errorMessage(error) ?? 'Please try again.', variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  }, [server]);

  return { state, busy, enable, disable, test };
}

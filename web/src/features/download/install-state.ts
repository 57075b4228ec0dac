/**
 * What /download offers: nothing to install when the app is already
 * running installed, the browser's own Install when it offers one, otherwise the manual steps.
 */
export type InstallState = 'installed' | 'prompt' | 'manual';

export interface InstallSignals {
  /** `(display-mode: standalone)` (or fullscreen/minimal-ui) matches: this page runs as the app. */
  standalone: boolean;
  /** iOS Safari's own flag for a page opened from the home screen (`navigator.standalone`). */
  iosStandalone?: boolean;
  /** The browser said `appinstalled` during this visit. */
  installedNow: boolean;
  /** The browser made an install offer (`beforeinstallprompt`) that is still unused. */
  promptAvailable: boolean;
}

export function installStateOf(signals: InstallSignals): InstallState {
  if (signals.standalone || signals.iosStandalone === true || signals.installedNow) return 'installed';
  return signals.promptAvailable ? 'prompt' : 'manual';
}

export type PhonePlatform = 'ios' | 'android' | 'other';

/**
 * Which manual steps to put first. iPadOS 13+ reports itself as a Mac; its touch points give it
 * away. Only an order: both sets of steps are always shown.
 */
export function phonePlatformOf(userAgent: string, maxTouchPoints = 0): PhonePlatform {
  if (/iPhone|iPad|iPod/i.test(userAgent)) return 'ios';
  if (/Macintosh/i.test(userAgent) && maxTouchPoints > 1) return 'ios';
  if (/Android/i.test(userAgent)) return 'android';
  return 'other';
}

/** The display modes in which the page runs as an installed app (the manifest asks for standalone). */
export const INSTALLED_DISPLAY_MODES = ['standalone', 'fullscreen', 'minimal-ui'] as const;

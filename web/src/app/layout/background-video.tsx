import { useEffect, useState } from 'react';

/** A still of the video (web/scripts/make-pwa-assets.ts makes it), shown first and while it loads. */
export const BACKGROUND_POSTER = '/media/background-poster.webp';

/**
 * Whether the background video may play at all: not for people who ask for reduced motion, nor on
 * a data saver (`navigator.connection.saveData`); they keep the still poster.
 */
export function backgroundVideoAllowed(settings: { reducedMotion: boolean; saveData: boolean }): boolean {
  return !settings.reducedMotion && !settings.saveData;
}

/** True once the page has loaded and the browser is idle: nothing the first paint needs is still coming. */
function useAfterLoad(): boolean {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    let idle: number | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ready = () => {
      if ('requestIdleCallback' in window) idle = window.requestIdleCallback(() => setLoaded(true), { timeout: 3000 });
      else timer = setTimeout(() => setLoaded(true), 0);
    };
    if (document.readyState === 'complete') ready();
    else window.addEventListener('load', ready, { once: true });
    return () => {
      window.removeEventListener('load', ready);
      if (idle !== undefined) window.cancelIdleCallback(idle);
      clearTimeout(timer);
    };
  }, []);
  return loaded;
}

/** Follows the visitor's reduced-motion and data-saver settings as they change. */
function useVideoAllowed(): boolean {
  const read = () =>
    backgroundVideoAllowed({
      reducedMotion: window.matchMedia('(prefers-reduced-motion: reduce)').matches,
      saveData: (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true,
    });
  // Rendered into HTML at build time, where there is no window: no video there either way.
  const [allowed, setAllowed] = useState(() => typeof window !== 'undefined' && read());
  useEffect(() => {
    const motion = window.matchMedia('(prefers-reduced-motion: reduce)');
    const connection = (navigator as Navigator & { connection?: EventTarget }).connection;
    const update = () => setAllowed(read());
    motion.addEventListener('change', update);
    connection?.addEventListener?.('change', update);
    return () => {
      motion.removeEventListener('change', update);
      connection?.removeEventListener?.('change', update);
    };
  }, []);
  return allowed;
}

/**
 * The looping, muted background video every public page shares. The poster (a
 * few KB) paints first; the video is added only after the load event, so it never competes with
 * the page's own files or delays the largest paint, and never for people who ask for reduced
 * motion or for a data saver. If the video or its last source fails, video and poster are hidden
 * and the gradient underneath shows, so a failure never leaves a broken frame. A dark overlay keeps text readable.
 */
export function BackgroundVideo() {
  const [failed, setFailed] = useState(false);
  const [playing, setPlaying] = useState(false);
  const loaded = useAfterLoad();
  const allowed = useVideoAllowed();
  const fail = () => setFailed(true);
  return (
    <div aria-hidden="true" className="pointer-events-none fixed inset-0 -z-10 overflow-hidden">
      <div className="absolute inset-0 bg-gradient-to-br from-slate-950 via-indigo-950 to-slate-900" />
      {failed ? null : (
        <img
          src={BACKGROUND_POSTER}
          alt=""
          decoding="async"
          className="absolute inset-0 h-full w-full object-cover"
          data-testid="background-poster"
        />
      )}
      {failed || !loaded || !allowed ? null : (
        <video
          className={`absolute inset-0 h-full w-full object-cover transition-opacity duration-700 motion-reduce:hidden ${playing ? 'opacity-100' : 'opacity-0'}`}
          autoPlay
          muted
          loop
          playsInline
          preload="auto"
          poster={BACKGROUND_POSTER}
          tabIndex={-1}
          onError={fail}
          onPlaying={() => setPlaying(true)}
          data-testid="background-video"
        >
          <source src="/media/background.webm" type="video/webm" />
          <source src="/media/background.mp4" type="video/mp4" onError={fail} />
        </video>
      )}
      <div className="absolute inset-0 bg-slate-950/70" />
    </div>
  );
}

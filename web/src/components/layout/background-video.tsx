import { useState } from 'react';

/**
 * The looping, muted background video every public page shares (spec section 1). If the video or
 * its last source fails, it is hidden and the gradient underneath shows. A dark overlay keeps
 * text readable; people who ask for reduced motion get the gradient only.
 */
export function BackgroundVideo() {
  const [failed, setFailed] = useState(false);
  const fail = () => setFailed(true);
  return (
    <div aria-hidden="true" className="pointer-events-none fixed inset-0 -z-10 overflow-hidden">
      <div className="absolute inset-0 bg-gradient-to-br from-slate-950 via-indigo-950 to-slate-900" />
      {failed ? null : (
        <video
          className="absolute inset-0 h-full w-full object-cover motion-reduce:hidden"
          autoPlay
          muted
          loop
          playsInline
          preload="auto"
          tabIndex={-1}
          onError={fail}
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

/**
 * A short beep made on the spot with WebAudio (no audio file to fetch). Browsers keep audio
 * suspended until the page has had a click or key press; before that the beep is simply silent.
 */
let context: AudioContext | null = null;

type AudioContextClass = typeof AudioContext;

export function beep(urgent: boolean): void {
  try {
    const Context: AudioContextClass | undefined =
      window.AudioContext ?? (window as unknown as { webkitAudioContext?: AudioContextClass }).webkitAudioContext;
    if (!Context) return;
    context ??= new Context();
    const ctx = context;
    if (ctx.state === 'suspended') void ctx.resume().catch(() => undefined);
    // Critical: two higher tones; high: one.
    const tones = urgent ? [0, 0.2] : [0];
    for (const offset of tones) {
      const start = ctx.currentTime + offset;
      const oscillator = ctx.createOscillator();
      const gain = ctx.createGain();
      oscillator.type = 'sine';
      oscillator.frequency.value = urgent ? 880 : 660;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.15, start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.15);
      oscillator.connect(gain).connect(ctx.destination);
      oscillator.start(start);
      oscillator.stop(start + 0.16);
    }
  } catch {
    // No sound is better than a broken notification.
  }
}

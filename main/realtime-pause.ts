/**
 * "Pause real-time" (tray and Feeds menu): for this run, clouds can no longer reach the receiver
 * (no tunnel, no public address), so feeds fall back to polling; resuming applies the saved
 * settings again. Not saved: a restart resumes, as a pause should. Changing the real-time settings
 * while paused applies them, which ends the pause (paused() reads the live mode).
 */
import type { Tidings } from '../src/app/tidings.ts';

export interface RealtimePause {
  paused(): boolean;
  /** Real-time is configured at all (a tunnel or a public address), paused or not. */
  available(): Promise<boolean>;
  set(pause: boolean): Promise<void>;
}

export function createRealtimePause(
  core: Pick<Tidings, 'context' | 'getSettings' | 'realtimeInfo'>,
): RealtimePause {
  let pausedByUs = false;
  const target = async () => {
    const s = await core.getSettings();
    return {
      tunnelHost: s.tunnelEnabled ? (s.tunnelHost ?? null) : null,
      publicBaseUrl: s.publicBaseUrl ?? null,
    };
  };
  return {
    paused() {
      // The settings were changed since: they reconfigured real-time, so the pause is over.
      if (pausedByUs && core.context.realtime?.info().mode !== 'off') pausedByUs = false;
      return pausedByUs;
    },
    async available() {
      const t = await target();
      return core.context.realtime !== null && (t.tunnelHost !== null || t.publicBaseUrl !== null);
    },
    async set(pause) {
      const realtime = core.context.realtime;
      if (!realtime) return;
      if (pause) realtime.reconfigure({ tunnelHost: null, publicBaseUrl: null });
      else realtime.reconfigure(await target());
      pausedByUs = pause;
    },
  };
}

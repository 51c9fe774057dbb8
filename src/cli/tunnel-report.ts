/**
 * What `tidings serve` says about its tunnel as it goes: the core logs every attempt in the
 * activity log; the console gets one line when the tunnel cannot be opened (the reason and the
 * fallback: feeds are polled meanwhile), not one per retry, and one when it is open again.
 */
import type { ActivityEntry } from '../app/api.ts';

export function tunnelReporter(
  tunnelHost: string,
  print: { out(line: string): void; err(line: string): void },
): (entry: ActivityEntry) => void {
  let down = false;
  let open = false;
  return (entry) => {
    if (entry.procedure !== 'tunnel') return;
    if (!entry.ok) {
      open = false;
      if (down) return; // said once; the activity log keeps every attempt
      down = true;
      const why = entry.result.replace(/\s*Reconnecting in \d+ s\.$/, '');
      print.err(
        `Real-time reading: the tunnel via ${tunnelHost} could not be opened: ${why} Feeds are polled until it opens; Tidings keeps trying (each attempt is in the activity log).`,
      );
      return;
    }
    if (open) return;
    const url = /^tunnel open: (\S+)/.exec(entry.result)?.[1];
    print.out(
      `Real-time reading: the tunnel is open${url ? ` at ${url}` : ''}${down ? ' again' : ''}; clouds call it now.`,
    );
    open = true;
    down = false;
  };
}

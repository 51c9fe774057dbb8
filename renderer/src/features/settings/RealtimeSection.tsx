/**
 * Settings > Real time: how clouds and hubs reach this computer. The first line says what is in
 * use now, as the core reports it (the tunnel and its server, your public address, or off and
 * why: not yet answered, this run's --no-tunnel, turned off, paused), not what the fields say;
 * the fields below are the saved choice, which waits for Save like every field here.
 */
import { useCallback, useEffect, useState } from 'react';
import type { RealtimeInfo } from '../../../../src/app/api';
import { getClient } from '../../api/client';
import { Checkbox } from '../../components/Checkbox';
import { SettingsSection } from '../../components/SettingsSection';
import { TextField } from '../../components/TextField';
import { useCoreSettingsDraft } from './core-settings-draft';
import { RealtimeSubscriptions } from './RealtimeSubscriptions';

const KEYS = ['tunnelEnabled', 'tunnelHost', 'publicBaseUrl'] as const;

const hostOf = (url: string | null) => {
  try {
    return url ? new URL(url).host : 'the tunnel server';
  } catch {
    return url ?? 'the tunnel server';
  }
};

/** What reaches this computer now, in a sentence. */
export function describeRealtime(info: RealtimeInfo | null): string {
  if (!info) return 'Checking…';
  if (info.mode === 'public') return `In use: your public address. Clouds call ${info.publicUrl}.`;
  if (info.mode === 'tunnel') {
    const via = hostOf(info.tunnelHost);
    const t = info.tunnel;
    if (t?.status === 'open') return `In use: a tunnel through ${via}. Clouds call ${info.publicUrl}.`;
    if (t?.lastError)
      return `A tunnel through ${via} cannot open now: ${t.lastError} Feeds are checked on a schedule meanwhile; Tidings keeps trying.`;
    return `In use: a tunnel through ${via}, opening…`;
  }
  switch (info.off) {
    case 'unanswered':
      return 'Off: Tidings has not opened a tunnel, because you have not said yet that it may (it asks when it starts). Tick the box below and Save to open one.';
    case 'thisRun':
      return 'Off for this run (started with --no-tunnel): feeds are checked on a schedule. A choice saved below applies at once.';
    case 'paused':
      return 'Paused for this run (Pause real-time): feeds are checked on a schedule until you resume.';
    default:
      return 'Off: nothing reaches this computer from outside, so every feed is checked on a schedule.';
  }
}

export function RealtimeSection() {
  const [info, setInfo] = useState<RealtimeInfo | null>(null);
  const refresh = useCallback(
    () =>
      getClient()
        .realtimeInfo()
        .then(setInfo, () => {}),
    [],
  );
  const realtime = useCoreSettingsDraft('Real time', KEYS, () => void refresh());
  const draft = realtime.draft;

  useEffect(() => {
    // The tunnel comes and goes on its own: keep the line current while the page is open.
    void refresh();
    const timer = setInterval(() => void refresh(), 2000);
    return () => clearInterval(timer);
  }, [refresh]);

  return (
    <SettingsSection id="settings-realtime" title="Real time" problem={realtime.status}>
      <p className="settings-note">
        Some feeds can tell Tidings the moment they change (rssCloud, WebSub) instead of waiting for the next
        check. For that, their servers must be able to reach this computer.
      </p>
      <p
        className="settings-status settings-in-use"
        data-testid="settings-realtime"
        data-mode={info?.mode}
        data-off={info?.off ?? undefined}
      >
        {describeRealtime(info)}
      </p>
      {draft && (
        <fieldset className="settings-choice">
          <legend>Your choice</legend>
          <Checkbox
            className="settings-check"
            checked={draft.tunnelEnabled ?? false}
            onChange={(tunnelEnabled) => realtime.set({ tunnelEnabled })}
            testId="settings-tunnel-enabled"
            hint="A relay on the internet forwards clouds’ and hubs’ calls to this app’s receiver and the feed you host only (never the app, your other files or programs)."
          >
            Reach this computer through a tunnel
          </Checkbox>
          <TextField
            label="Tunnel server"
            type="url"
            value={draft.tunnelHost ?? ''}
            disabled={!draft.tunnelEnabled}
            onValue={(tunnelHost) => realtime.set({ tunnelHost })}
            testId="settings-tunnel-host"
          />
          <TextField
            label="Or your own public address"
            note="If this computer is reachable already (a port forward, a server), instead of a tunnel."
            type="url"
            placeholder="https://me.example.org"
            value={draft.publicBaseUrl ?? ''}
            onValue={(v) => realtime.set({ publicBaseUrl: v.trim() === '' ? null : v })}
            testId="settings-public-url"
          />
        </fieldset>
      )}
      {info?.cloud && (
        <p className="settings-note" data-testid="settings-own-cloud">
          Readers of your own feed are told of new posts by this app's notification service, at{' '}
          {info.cloud.domain}:{info.cloud.port}
          {info.cloud.path} ({info.cloud.protocol}).
        </p>
      )}
      {info?.hub && (
        <p className="settings-note" data-testid="settings-own-hub">
          Your hub (WebSub), for readers whose apps use WebSub: {info.hub}
        </p>
      )}
      <h4 className="settings-subhead">Feeds read in real time</h4>
      {info ? (
        <RealtimeSubscriptions subscriptions={info.subscriptions} />
      ) : (
        <p className="settings-note">Checking…</p>
      )}
    </SettingsSection>
  );
}

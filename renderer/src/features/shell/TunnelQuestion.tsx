/**
 * The first run's question (issue 35): may Tidings open a public tunnel? Asked in the window, in
 * browser mode and the desktop app alike, before any tunnel opens; the answer is remembered by the
 * core (answerTunnelQuestion) and Settings > Real time changes it later. Closing the dialog
 * (Escape, ×) answers nothing: the tunnel stays closed and the question comes back next start.
 */
import { useEffect, useState } from 'react';
import { errorMessage } from '../../api/api-error';
import { getClient } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useApp } from '../../store/context';

/** The tunnel service, as people know it: its host name. */
function serviceName(tunnelHost: string | null): string {
  if (!tunnelHost) return 'the tunnel service';
  try {
    return new URL(tunnelHost).host;
  } catch {
    return tunnelHost;
  }
}

export function TunnelQuestion({ onDone }: { onDone(): void }) {
  const pushNotice = useApp((s) => s.pushNotice);
  const [host, setHost] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    getClient()
      .getSettings()
      .then(
        (s) => live && setHost(s.tunnelHost ?? null),
        () => {},
      );
    return () => {
      live = false;
    };
  }, []);

  async function answer(open: boolean) {
    setBusy(true);
    setError(null);
    try {
      await getClient().answerTunnelQuestion(open);
      pushNotice({
        level: 'info',
        message: open
          ? `Opening a tunnel through ${serviceName(host)}: Settings > Real time says when it is open.`
          : 'No tunnel: feeds are checked on a schedule. Settings > Real time can open one later.',
      });
      onDone();
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  }

  return (
    <ConfirmDialog
      title="Read feeds in real time through a public tunnel?"
      answers={[
        { label: 'Keep it closed', run: () => void answer(false), testId: 'tunnel-keep-closed' },
        { label: 'Open the tunnel', run: () => void answer(true), primary: true, testId: 'tunnel-open' },
      ]}
      busy={busy}
      error={error}
      onCancel={onDone}
      testId="tunnel-question"
    >
      <p>
        A tunnel through {serviceName(host)} makes only Tidings’ small receiver and the feed you host
        reachable from the internet, so clouds and hubs can tell it the moment a feed changes; the app itself,
        its window and your data are never reachable through it.
      </p>
      <p>Without it, feeds are checked on a schedule. Settings › Real time changes this at any time.</p>
    </ConfirmDialog>
  );
}

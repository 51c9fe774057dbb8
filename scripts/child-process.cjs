// Running a child process as part of ourselves, for the launchers (bin/tidings.cjs re-running
// itself on Node 24; scripts/start.cjs running Electron or browser mode). Two rules:
// - the parent forwards SIGINT/SIGTERM/SIGHUP to the child and exits the way the child did
//   (its code, or the same signal), so killing the launcher never leaves the server running;
// - the child ends if the parent dies, even by kill -9: an IPC channel closes with the parent,
//   and the child (watchParent) answers that by stopping cleanly as if sent SIGTERM.
'use strict';
const { spawn } = require('node:child_process');

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const WATCH_ENV = 'TIDINGS_WATCH_PARENT';

/** Spawns `cmd` as our stand-in; resolves never: the process exits with the child. */
function runAsChild(cmd, args, opts = {}) {
  // Only Node children can hold the IPC channel; others (Electron) still get signals forwarded.
  const ipc = opts.node !== false;
  const child = spawn(cmd, args, {
    ...opts.spawn,
    stdio: ipc ? ['inherit', 'inherit', 'inherit', 'ipc'] : 'inherit',
    env: { ...process.env, ...(opts.spawn && opts.spawn.env), ...(ipc ? { [WATCH_ENV]: '1' } : {}) },
  });
  const forwarders = FORWARDED.map((signal) => {
    // A terminal's Ctrl-C reaches the child too; the child's one clean stop absorbs the repeat.
    const forward = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    };
    process.on(signal, forward);
    return [signal, forward];
  });
  child.on('error', (e) => {
    console.error(`tidings: could not start ${cmd}: ${e.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    if (signal) {
      // Die of the same signal, so our parent (a shell, npm) sees what happened.
      for (const [s, f] of forwarders) process.off(s, f);
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code ?? 1);
  });
  return child;
}

/** In a child started by runAsChild: stop (as on SIGTERM) when the parent goes away. */
function watchParent() {
  if (process.env[WATCH_ENV] !== '1' || !process.channel) return;
  delete process.env[WATCH_ENV]; // not inherited by our own children
  process.channel.unref(); // the channel alone must not keep us running
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}

module.exports = { runAsChild, watchParent };

import { EventEmitter } from 'node:events';
import { expect, it } from 'vitest';
import { ManualClock } from './clock.ts';
import { createShutdown, installSignalHandlers } from './shutdown.ts';

function setup(stop: () => Promise<void>) {
  const clock = new ManualClock();
  const exits: number[] = [];
  const lines: string[] = [];
  const shutdown = createShutdown({
    stop,
    exit: (code) => exits.push(code),
    deadlineMs: 10_000,
    log: (l) => lines.push(l),
    setTimer: (ms, fn) => clock.setTimer(ms, fn),
  });
  return { clock, exits, lines, shutdown };
}

function deferred() {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

it('the first request stops once; later ones wait for the same stop; then exit 0', async () => {
  const gate = deferred();
  let stops = 0;
  const { exits, lines, shutdown } = setup(() => {
    stops++;
    return gate.promise;
  });
  const first = shutdown.request('SIGINT');
  const second = shutdown.request('SIGINT');
  expect(shutdown.state).toBe('stopping');
  expect(stops).toBe(1);
  expect(lines[1]).toMatch(/Already stopping \(SIGINT ignored\)/);
  gate.resolve();
  await Promise.all([first, second]);
  expect(exits).toEqual([0]);
  expect(shutdown.state).toBe('stopped');
});

it('a stop that hangs past the deadline exits 1 (and only once)', async () => {
  const gate = deferred();
  const { clock, exits, lines, shutdown } = setup(() => gate.promise);
  void shutdown.request('quit');
  clock.advance(9_999);
  expect(exits).toEqual([]);
  clock.advance(1);
  expect(exits).toEqual([1]);
  expect(lines.at(-1)).toMatch(/longer than 10 s/);
  gate.resolve();
  await shutdown.request('again');
  expect(exits).toEqual([1]);
});

it('a failed stop exits 1 with the reason', async () => {
  const { exits, lines, shutdown } = setup(async () => {
    throw new Error('database is locked');
  });
  await shutdown.request('SIGTERM');
  expect(exits).toEqual([1]);
  expect(lines.at(-1)).toBe('The stop failed: database is locked');
});

it('signal handlers stay installed, so a second signal waits instead of killing', async () => {
  const gate = deferred();
  let stops = 0;
  const { exits, shutdown } = setup(() => {
    stops++;
    return gate.promise;
  });
  const proc = new EventEmitter();
  const uninstall = installSignalHandlers(proc as never, shutdown);
  proc.emit('SIGTERM');
  proc.emit('SIGINT');
  proc.emit('SIGHUP');
  expect(proc.listenerCount('SIGINT')).toBe(1);
  expect(stops).toBe(1);
  gate.resolve();
  await shutdown.request('x');
  expect(exits).toEqual([0]);
  uninstall();
  expect(proc.listenerCount('SIGTERM')).toBe(0);
});

/**
 * The cloud's stdout log ends whole and in order when the process stops, even when the reader of
 * stdout is slow (a container runtime's log driver under load): every line parses, and "SIGINT
 * received" never comes after "Cloud stopped." (seen in CI before closeLogger).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const CHILD = fileURLToPath(new URL('../../testing/logger-child.ts', import.meta.url));

/** The messages the child logged, as its stdout reader got them, read only after a pause. */
async function linesOf(mode: 'close' | 'flush'): Promise<string[]> {
  const child = spawn(process.execPath, [CHILD, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout.pause();
  await new Promise((resolve) => setTimeout(resolve, 500));
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stdout.resume();
  await new Promise((resolve) => child.once('close', resolve));
  return out
    .trim()
    .split('\n')
    .map((line) => {
      try {
        return (JSON.parse(line) as { msg: string }).msg.split(' ')[0]!;
      } catch {
        return `(a broken line of ${line.length} characters)`;
      }
    });
}

it('closeLogger writes every line whole and in order while a big write is under way', async () => {
  expect(await linesOf('close')).toEqual(['first', 'second', 'third']);
});

it('a synchronous flush alone would not (the reason closeLogger exists)', async () => {
  // If this starts to pass, pino's writer keeps order on its own and closeLogger can go.
  expect(await linesOf('flush')).not.toEqual(['first', 'second', 'third']);
});

/** The `tidings` command run as a user runs it, in a child process: exit code and both outputs. */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const TIDINGS_BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'tidings.cjs');

export async function tidings(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [TIDINGS_BIN, ...args], { timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

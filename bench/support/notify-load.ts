/**
 * A load generator for bench:latency: rssCloud notifications (POST, form body url=<feed>) to the
 * receiver at stepped offered rates over `concurrency` keep-alive connections, in its own process
 * so the receiver's event loop and memory are measured alone.
 *
 * Open loop: requests are scheduled at the offered rate whether or not earlier ones have been
 * answered, and each one's latency counts from its scheduled time, so a receiver that falls
 * behind shows it in p99 (no coordinated omission). Raw sockets with one request in flight per
 * connection, not node:http's client, so the generator is not the bottleneck it measures.
 *
 * A trial steps up through `rates` until a step fails (errors, or p99 > `maxP99Ms`), then looks
 * closer between the last step that held and the one that failed (capacity-search.ts).
 * `trials` trials in a row, each from the bottom.
 * Prints one JSON line per step {"trial","rate","sent","ok","errors","seconds","per_s","p50_ms",
 * "p99_ms","max_ms","gen_cpu_us"} (the generator's own CPU per request, to show it is not the
 * bottleneck), one per trial {"trial","held_rate","held_per_s","held_p99_ms"} (the highest
 * offered rate held, what it answered per second and its p99; 0 when none held) and a last
 * line {"done":true}.
 *
 * Usage: node notify-load.ts <url> <feedUrl> <rate,rate,...> <secondsPerStep> [concurrency=64]
 *        [maxP99Ms=50] [trials=3] [refine=4]
 */
import net from 'node:net';
import { searchCapacity } from './capacity-search.ts';

const [target, feedUrl, ratesArg, secondsArg, concurrencyArg, maxP99Arg, trialsArg, refineArg] =
  process.argv.slice(2);
const rates = (ratesArg ?? '2000').split(',').map(Number);
const seconds = Number(secondsArg ?? 10);
const concurrency = Number(concurrencyArg ?? 64);
const maxP99Ms = Number(maxP99Arg ?? 50);
const trials = Number(trialsArg ?? 3);
const refine = Number(refineArg ?? 4);
const url = new URL(target!);
const body = `url=${encodeURIComponent(feedUrl!)}`;
const request = Buffer.from(
  `POST ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n` +
    `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
);

interface Step {
  sent: number;
  ok: number;
  errors: number;
  latencies: number[];
}

/** One keep-alive connection with at most one request in flight. */
class Conn {
  private socket: net.Socket | null = null;
  private buf: Buffer = Buffer.alloc(0);
  private scheduledAt = 0;
  private step: Step | null = null;
  busy = false;

  private readonly onFree: () => void;

  constructor(onFree: () => void) {
    this.onFree = onFree;
  }

  send(scheduledAt: number, step: Step): void {
    this.busy = true;
    this.scheduledAt = scheduledAt;
    this.step = step;
    step.sent++;
    if (!this.socket) this.connect();
    this.socket!.write(request);
  }

  private connect(): void {
    const socket = net.connect({ host: url.hostname, port: Number(url.port) });
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
      this.parse();
    });
    const fail = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.buf = Buffer.alloc(0);
      if (this.busy) this.finish(false);
    };
    socket.on('error', fail);
    socket.on('close', fail);
    this.socket = socket;
  }

  private parse(): void {
    const end = this.buf.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = this.buf.subarray(0, end).toString('latin1');
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    if (this.buf.length < end + 4 + length) return;
    this.buf = this.buf.subarray(end + 4 + length);
    const status = Number(head.slice(9, 12));
    if (/\r\nconnection:\s*close/i.test(head)) {
      this.socket?.destroy();
      this.socket = null;
    }
    this.finish(status === 200);
  }

  private finish(ok: boolean): void {
    const step = this.step!;
    if (ok) step.ok++;
    else step.errors++;
    step.latencies.push(performance.now() - this.scheduledAt);
    this.busy = false;
    this.onFree();
  }

  close(): void {
    this.socket?.destroy();
    this.socket = null;
  }
}

const queue: number[] = []; // scheduled send times not yet on a connection
let current: Step | null = null;
const dispatch = () => {
  for (const c of conns) {
    if (queue.length === 0 || !current) return;
    if (!c.busy) c.send(queue.shift()!, current);
  }
};
const conns: Conn[] = Array.from({ length: concurrency }, () => new Conn(() => dispatch()));

async function runStep(rate: number): Promise<Record<string, number>> {
  const step: Step = { sent: 0, ok: 0, errors: 0, latencies: [] };
  const cpuAtStart = process.cpuUsage();
  current = step;
  const total = Math.round(rate * seconds);
  const started = performance.now();
  let scheduled = 0;
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const now = performance.now();
      const due = Math.min(total, Math.floor(((now - started) / 1000) * rate));
      while (scheduled < due) {
        queue.push(started + (scheduled / rate) * 1000);
        scheduled++;
      }
      dispatch();
      if (scheduled >= total) {
        clearInterval(tick);
        resolve();
      }
    }, 1);
  });
  // Let the last ones finish (or give up on them after 5 s).
  const deadline = performance.now() + 5_000;
  while ((queue.length > 0 || conns.some((c) => c.busy)) && performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 5));
  }
  const lost = queue.length + conns.filter((c) => c.busy).length;
  queue.length = 0;
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuAtStart);
  const sorted = step.latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * q) - 1))] ?? 0;
  return {
    rate,
    sent: step.sent,
    ok: step.ok,
    errors: step.errors + lost,
    seconds: +elapsed.toFixed(2),
    per_s: Math.round(step.ok / elapsed),
    p50_ms: +at(0.5).toFixed(2),
    p99_ms: +at(0.99).toFixed(2),
    max_ms: +(sorted.at(-1) ?? 0).toFixed(2),
    gen_cpu_us: +((cpu.user + cpu.system) / Math.max(1, step.sent)).toFixed(1),
  };
}

const holds = (r: Record<string, number>) => r.errors === 0 && r.p99_ms! <= maxP99Ms;

for (let trial = 1; trial <= trials; trial++) {
  const results = new Map<number, Record<string, number>>();
  const heldRate = await searchCapacity(rates, refine, async (rate) => {
    const result = await runStep(rate);
    process.stdout.write(`${JSON.stringify({ trial, ...result })}\n`);
    results.set(rate, result);
    return holds(result);
  });
  const top = results.get(heldRate);
  process.stdout.write(
    `${JSON.stringify({ trial, held_rate: heldRate, held_per_s: top?.per_s ?? 0, held_p99_ms: top?.p99_ms ?? null })}\n`,
  );
}
for (const c of conns) c.close();
process.stdout.write(`${JSON.stringify({ done: true })}\n`);

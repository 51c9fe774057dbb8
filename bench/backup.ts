/**
 * bench:backup — backup and restore of a heavy user's data folder (issue 32): 100,000 items in
 * 200 feeds (bench/support/corpus.ts, built by a child process so the memory figure is this
 * process's own), with secrets sealed by a passphrase (scrypt's half second included).
 * - backup_100k_s: `tidings backup`'s work (src/backup/create-backup.ts) on the folder;
 * - restore_100k_s: restoring that file into an empty folder (every byte checked, databases opened);
 * - peak_rss_mb: this process's resident set at its peak (both steps);
 * - backup_cpu_s, restore_cpu_s: CPU time of each (all threads), which a busy machine does not inflate;
 * - backup_loop_block_ms, restore_loop_block_ms: the event loop's longest block during each
 *   (monitorEventLoopDelay's maximum): how long the app, which runs a backup from Settings in its
 *   own process, could not answer anything meanwhile.
 * The restored folder must hold what the backup said (or the bench fails). ITEMS=10000 for a
 * quick run. Ends with one JSON line.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createBackup } from '../src/backup/create-backup.ts';
import { restoreBackup } from '../src/backup/restore.ts';
import { summarizeDataDir } from '../src/backup/summary.ts';

const FEEDS = Number(process.env.FEEDS ?? 200);
const ITEMS = Number(process.env.ITEMS ?? 100_000);
const PASSPHRASE = 'a bench passphrase';

const root = mkdtempSync(join(tmpdir(), 'tidings-bench-backup-'));
const source = join(root, 'data');
const target = join(root, 'restored');
const file = join(root, 'bench.tidings-backup');
try {
  const corpus = JSON.parse(
    execFileSync(
      process.execPath,
      [join(import.meta.dirname, 'support', 'corpus.ts'), source, String(FEEDS), String(ITEMS)],
      {
        encoding: 'utf8',
      },
    ),
  ) as { items: number };
  const before = summarizeDataDir(source);

  // CPU seconds beside the wall-clock ones: on a shared machine the wall clock also counts waiting.
  const cpuSeconds = (since: NodeJS.CpuUsage) => {
    const used = process.cpuUsage(since);
    return (used.user + used.system) / 1e6;
  };
  // The longest the event loop was held, in ms (the histogram keeps nanoseconds).
  const loopWatch = () => {
    const h = monitorEventLoopDelay({ resolution: 10 });
    h.enable();
    return () => {
      h.disable();
      return h.max / 1e6;
    };
  };
  let t = performance.now();
  let cpu = process.cpuUsage();
  let loop = loopWatch();
  const made = await createBackup(source, file, { passphrase: PASSPHRASE });
  const backupS = (performance.now() - t) / 1000;
  const backupCpuS = cpuSeconds(cpu);
  const backupBlockMs = loop();
  if (!made.ok) throw new Error(made.error.message);

  t = performance.now();
  cpu = process.cpuUsage();
  loop = loopWatch();
  const restored = await restoreBackup(file, target, { passphrase: PASSPHRASE });
  const restoreS = (performance.now() - t) / 1000;
  const restoreCpuS = cpuSeconds(cpu);
  const restoreBlockMs = loop();
  if (!restored.ok) throw new Error(restored.error.message);
  if (JSON.stringify(restored.value.summary) !== JSON.stringify(before) || corpus.items !== before?.items) {
    throw new Error(`restored ${JSON.stringify(restored.value.summary)}, expected ${JSON.stringify(before)}`);
  }

  const round = (x: number) => Math.round(x * 100) / 100;
  console.log(
    JSON.stringify({
      items: before.items,
      feeds: before.feeds,
      data_mb: round(
        (statSync(join(source, 'tidings.db')).size + statSync(join(source, 'publish.db')).size) / 1e6,
      ),
      backup_mb: round(made.value.size / 1e6),
      backup_100k_s: round(backupS),
      restore_100k_s: round(restoreS),
      backup_cpu_s: round(backupCpuS),
      restore_cpu_s: round(restoreCpuS),
      backup_loop_block_ms: Math.round(backupBlockMs),
      restore_loop_block_ms: Math.round(restoreBlockMs),
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      load_1m: round(loadavg()[0]!),
    }),
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}

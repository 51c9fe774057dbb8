#!/usr/bin/env node
// `npm test`: every check and test, then one closing line with the real totals:
//   N passed, N failed, N skipped
// Steps: lint (Biome), type-check (four tsconfigs: core, main, renderer, configs) and build, side
// by side one per core (each uses one), then unit and
// integration tests (Vitest, real servers on loopback), end-to-end tests (Playwright + Chromium,
// installed from Debian's packages when missing). Exits non-zero on any failure.
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const os = require('node:os');
const fs = require('node:fs');
const path = require('node:path');
const { nodeVersionProblem } = require('./node-version.cjs');

const root = path.join(__dirname, '..');
const results = path.join(root, 'test-results');
fs.mkdirSync(results, { recursive: true });
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];

/** The lines around a step's output: what runs, then how it ended and how long it took. */
const heading = (name, cmd, args) => console.log(`\n=== ${name}: ${[path.basename(cmd), ...args].join(' ')}`);
const ending = (name, exit, started) =>
  console.log(`=== ${name}: ${exit === 0 ? 'ok' : `FAILED (exit ${exit})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);

function step(name, cmd, args, env = {}) {
  heading(name, cmd, args);
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  ending(name, r.status ?? r.signal, started);
  return r.status === 0;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Debian's headless shell first, then its Chromium: e2e/support/chromium.ts says why. */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
function findChromium() {
  const candidates = [
    process.env.CHROMIUM_PATH,
    HEADLESS_SHELL,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
  ].filter(Boolean);
  return candidates.find((p) => fs.existsSync(p)) ?? null;
}

/**
 * Runs a command with its output held back, then prints it whole when it ends (so steps running
 * side by side never interleave their logs). Resolves true when it exited 0.
 */
async function stepQuiet(name, cmd, args) {
  const started = Date.now();
  const { status, output } = await new Promise((resolve) => {
    const chunks = [];
    const child = spawn(cmd, args, { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => chunks.push(d));
    child.stderr.on('data', (d) => chunks.push(d));
    child.on('error', (e) => resolve({ status: null, output: String(e) }));
    child.on('close', (code) => resolve({ status: code, output: Buffer.concat(chunks).toString() }));
  });
  heading(name, cmd, args);
  if (output) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
  ending(name, status, started);
  return status === 0;
}

/** Checks that each use one core (Biome's check, tsc, the build), run side by side, one per core. */
async function checksSideBySide(checks) {
  const results = new Map();
  const queue = [...checks];
  const worker = async () => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      const [name, cmd, args] = c;
      results.set(name, await stepQuiet(name, cmd, args));
    }
  };
  const cores = Math.max(1, Math.min(checks.length, os.availableParallelism()));
  await Promise.all(Array.from({ length: cores }, worker));
  for (const [name] of checks) {
    const ok = results.get(name) === true;
    totals[ok ? 'passed' : 'failed']++;
    lines.push(`${name}: ${ok ? 'passed' : 'FAILED'}`);
  }
  return results;
}

const hasPostgres = () =>
  fs.existsSync('/usr/lib/postgresql') &&
  fs.readdirSync('/usr/lib/postgresql').some((v) => fs.existsSync(path.join('/usr/lib/postgresql', v, 'bin', 'initdb')));

/** The tools the container test builds and runs the cloud's image with (packaging/container/). */
const CONTAINER_TOOLS = ['podman', 'buildah', 'runc', 'mmdebstrap'];
const installed = (tool) =>
  [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/sbin'].some(
    (dir) => dir && fs.existsSync(path.join(dir, tool)),
  );

/**
 * Debian packages the tests need and this machine lacks: PostgreSQL for the cloud's `cloud-pg`
 * tests (they start a server of their own from its binaries, as the `postgres` user the package
 * creates), Chromium's headless shell for e2e (else full Chromium), and podman, buildah, runc and
 * mmdebstrap for the container test (about 15 s to install; the image then builds in about 80 s,
 * its Debian base made with mmdebstrap). Installed as root, in the background while the static
 * checks run: apt mostly waits on the network and the disk, the checks on the cores. Without root
 * nothing is installed and the steps say what is missing (the container test skips, saying why).
 */
function installMissing() {
  const installs = [];
  if (!process.env.TIDINGS_PG_BIN && !hasPostgres()) installs.push('apt-get install -y -qq postgresql');
  if (!CONTAINER_TOOLS.every(installed)) installs.push(`apt-get install -y -qq ${CONTAINER_TOOLS.join(' ')}`);
  // The headless shell even where full Chromium is installed: the suite takes two thirds the time.
  if (!process.env.CHROMIUM_PATH && !fs.existsSync(HEADLESS_SHELL)) {
    installs.push(`{ apt-get install -y -qq chromium-headless-shell || ${findChromium() ? 'true' : 'apt-get install -y -qq chromium'}; }`);
  }
  if (installs.length === 0 || process.getuid?.() !== 0) return Promise.resolve(true);
  const script = ['apt-get update -qq', ...installs].map((c) => `${c} >/dev/null`).join(' && ');
  return stepQuiet('install Debian packages', 'bash', ['-c', script]);
}

/**
 * One failed test as a summary line, with the first line of its error: the summary is what a CI log
 * that keeps only its tail still shows, so a failure must be named there, not only far above it.
 */
function failedLine(step, file, title, message) {
  const first = String(message ?? '')
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n').find((l) => l.trim() !== '') ?? '';
  return `${step}: FAILED ${file} > ${title}${first ? `: ${first.trim().slice(0, 300)}` : ''}`;
}

/** Every test Playwright's JSON report counts as unexpected, as [file, title path, first error]. */
function unexpectedE2e(suite, titles = []) {
  const out = [];
  for (const spec of suite.specs ?? []) {
    for (const t of spec.tests ?? []) {
      if (t.status !== 'unexpected') continue;
      const last = (t.results ?? []).at(-1);
      out.push([spec.file ?? suite.file, [...titles, spec.title].join(' > '), last?.error?.message ?? last?.errors?.[0]?.message]);
    }
  }
  for (const child of suite.suites ?? []) out.push(...unexpectedE2e(child, suite.title && suite.title !== suite.file ? [...titles, suite.title] : titles));
  return out;
}

/** One Vitest run with its JSON report added to the totals; a file that fails to load counts as a failure. */
function vitestStep(name, args, report) {
  const json = path.join(results, report);
  fs.rmSync(json, { force: true });
  const ok = step(name, bin('vitest'), ['run', ...args, '--reporter=default', '--reporter=json', `--outputFile=${json}`]);
  const v = readJson(json);
  if (v) {
    totals.passed += v.numPassedTests;
    totals.failed += v.numFailedTests;
    totals.skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
    lines.push(`${name}: ${v.numPassedTests} passed, ${v.numFailedTests} failed, ${v.numPendingTests ?? 0} skipped`);
    const broken = (v.testResults ?? []).filter((f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0);
    totals.failed += broken.length;
    if (broken.length) lines.push(`${name}: ${broken.length} test file(s) failed to load`);
    for (const f of v.testResults ?? []) {
      const file = path.relative(root, f.name ?? '');
      for (const a of f.assertionResults ?? []) {
        if (a.status === 'failed') lines.push(failedLine(name, file, a.fullName, a.failureMessages?.[0]));
      }
      if (f.status === 'failed' && (f.assertionResults ?? []).length === 0) lines.push(failedLine(name, file, '(the file)', f.message));
    }
  }
  if (!ok && (!v || v.numFailedTests === 0)) {
    totals.failed++;
    lines.push(`${name}: FAILED without a report`);
  }
}

async function main() {
  const wrongNode = nodeVersionProblem(root);
  if (wrongNode) {
    console.error(`tidings: ${wrongNode}`);
    console.log('0 passed, 1 failed, 0 skipped');
    return 1;
  }
  const installed = installMissing();
  // 1-3: static checks and the build the e2e tests use, longest first (measured on a fresh clone:
  // types core 14 s, main 9, renderer 8, configs 4, lint 3, build 2), so neither core idles at the end.
  const statics = await checksSideBySide([
    ['types: core', bin('tsc'), ['-p', 'tsconfig.node.json', '--noEmit']],
    ['types: main', bin('tsc'), ['-p', 'tsconfig.main.json', '--noEmit']],
    ['types: renderer', bin('tsc'), ['-p', 'tsconfig.web.json', '--noEmit']],
    ['types: configs', bin('tsc'), ['-p', 'tsconfig.config.json', '--noEmit']],
    ['lint', bin('biome'), ['check', '.']],
    ['build', bin('electron-vite'), ['build']],
  ]);
  const built = statics.get('build') === true;

  // 4: unit and integration tests (the `cloud-pg` project needs PostgreSQL's binaries: installed above).
  await installed;
  // Every project but the timing ones side by side; then each timing project alone, on a machine
  // nothing else in the run is using (vitest.config.mts says why).
  vitestStep('vitest', ['--project', '!timing*'], 'vitest.json');
  vitestStep('vitest: timing', ['--project', 'timing'], 'vitest-timing.json');
  if (hasPostgres() || process.env.TIDINGS_PG_BIN) vitestStep('vitest: timing on PostgreSQL', ['--project', 'timing-pg'], 'vitest-timing-pg.json');

  // 5: end-to-end in Chromium (Debian's; Playwright cannot download its own browsers here).
  const chromium = findChromium();
  if (!chromium) {
    totals.failed++;
    lines.push('e2e: FAILED: no Chromium (install Debian package chromium-headless-shell or chromium, or set CHROMIUM_PATH)');
  } else if (!built) {
    totals.failed++;
    lines.push('e2e: not run because the build failed');
  } else {
    const e2eJson = path.join(results, 'e2e.json');
    fs.rmSync(e2eJson, { force: true });
    const e2eOk = step('e2e', bin('playwright'), ['test', '--reporter=list,json'], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: e2eJson,
      CHROMIUM_PATH: chromium,
    });
    const e = readJson(e2eJson);
    if (e?.stats) {
      const passed = e.stats.expected + (e.stats.flaky ?? 0);
      totals.passed += passed;
      totals.failed += e.stats.unexpected;
      totals.skipped += e.stats.skipped;
      lines.push(`e2e: ${passed} passed, ${e.stats.unexpected} failed, ${e.stats.skipped} skipped`);
      for (const suite of e.suites ?? []) {
        for (const [file, title, message] of unexpectedE2e(suite)) lines.push(failedLine('e2e', `e2e/${file}`, title, message));
      }
      if (!e2eOk && e.stats.unexpected === 0) {
        totals.failed++;
        lines.push('e2e: FAILED (runner error)');
      }
    } else {
      totals.failed++;
      lines.push('e2e: FAILED without a report');
    }
  }

  console.log('\n=== summary');
  for (const line of lines) console.log(line);
  console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  return totals.failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);

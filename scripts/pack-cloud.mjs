#!/usr/bin/env node
// `npm run pack:cloud`: the cloud on its own, as an npm package (dist/cloud/tidings-cloud-<version>.tgz)
// that `npm install -g` turns into a `tidings-cloud` command, with none of the desktop app.
//
// Shape, and why:
// - The cloud's TypeScript is bundled by esbuild into one plain-JavaScript module
//   (lib/tidings-cloud.mjs, with the parser's worker and their shared chunks): no type stripping at run time, no source tree, only the files the
//   cloud imports (the list is written beside the tarball, dist/cloud/inputs.json, and checked by
//   packaging/cloud-package.test.ts).
// - pg, pino and prom-client stay packages of their own, the package's only dependencies:
//   pino starts worker threads from its own files, pg has optional native parts, and as packages
//   they are what `npm audit` and `npm ls` show an operator. They travel inside the tarball
//   (bundleDependencies), copied from this repository's node_modules at the versions its
//   lockfile pins: installing needs no registry, and a container is built without npm.
// - The launcher (bin/tidings-cloud.cjs) is bundled for any Node, so an older one is told which
//   Node to install instead of failing on syntax (scripts/node-version.cjs, as the app does).
// Prints the tarball's path, its size and its file count; `--json` prints them as one JSON line;
// `--out DIR` builds in DIR instead of dist/cloud (tests build side by side).
'use strict';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outAt = process.argv.indexOf('--out');
const out = outAt > 0 ? resolve(process.argv[outAt + 1]) : join(root, 'dist', 'cloud');
const stage = join(out, 'package');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const template = JSON.parse(readFileSync(join(root, 'packaging', 'package.template.json'), 'utf8'));

rmSync(out, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });

// 1. The cloud, one module, and the parser's worker thread beside it (saveRss feeds are parsed
//    there within a time budget: src/feed/parse-pool.ts finds it by workerBeside); the code both
//    use is in chunks of its own in lib/, not twice. The launcher, for any Node.
const bundled = await build({
  entryPoints: {
    'tidings-cloud': join(root, 'packaging', 'cloud-main.ts'),
    'parse-worker': join(root, 'src', 'feed', 'parse-worker.ts'),
  },
  outdir: join(stage, 'lib'),
  outExtension: { '.js': '.mjs' },
  splitting: true,
  chunkNames: 'chunk-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  external: Object.keys(template.dependencies),
  // Packages bundled from CommonJS call require(): give each module one.
  banner: {
    js: "import { createRequire as tidingsCreateRequire } from 'node:module';\nconst require = tidingsCreateRequire(import.meta.url);",
  },
  legalComments: 'eof',
  metafile: true,
  logLevel: 'warning',
});
await build({
  entryPoints: [join(root, 'packaging', 'bin', 'tidings-cloud.cjs')],
  outfile: join(stage, 'bin', 'tidings-cloud.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  // Old enough for any Node still around to read it (and be told which Node to install);
  // import() is kept as written (Node 12.20 has it). Its source's #! line is kept too.
  target: 'node12',
  supported: { 'dynamic-import': true },
  logLevel: 'warning',
});
const inputs = Object.keys(bundled.metafile.inputs).sort();
writeFileSync(join(out, 'inputs.json'), `${JSON.stringify(inputs, null, 2)}\n`);

// 2. What goes beside it: package.json from the template (this version, the pinned dependencies),
//    the package's README, the systemd unit.
const manifest = {
  ...template,
  version: pkg.version,
  homepage: pkg.homepage,
  dependencies: Object.fromEntries(
    Object.keys(template.dependencies).map((name) => {
      const pinned = pkg.dependencies[name];
      if (!/^\d+\.\d+\.\d+$/.test(pinned ?? '')) throw new Error(`${name} is not pinned in package.json (${pinned})`);
      return [name, pinned];
    }),
  ),
};
writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
cpSync(join(root, 'packaging', 'package-README.md'), join(stage, 'README.md'));
mkdirSync(join(stage, 'systemd'));
cpSync(join(root, 'packaging', 'systemd', 'tidings-cloud.service'), join(stage, 'systemd', 'tidings-cloud.service'));

// 3. The dependencies and theirs, as installed here (the lockfile's versions), where Node would
//    find them from the package: nested node_modules first, then the top.
const copied = new Set();
const copy = (name, from, optional) => {
  for (let dir = from; ; dir = dirname(dirname(dir))) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) {
      const rel = relative(root, candidate);
      if (copied.has(rel)) return;
      copied.add(rel);
      cpSync(candidate, join(stage, rel), { recursive: true, dereference: true });
      const dep = JSON.parse(readFileSync(join(candidate, 'package.json'), 'utf8'));
      for (const d of Object.keys(dep.dependencies ?? {})) copy(d, candidate, false);
      for (const d of Object.keys(dep.optionalDependencies ?? {})) copy(d, candidate, true);
      return;
    }
    if (dir === root) {
      if (optional) return;
      throw new Error(`${name} (needed from ${relative(root, from) || 'the package'}) is not installed: run npm ci`);
    }
  }
};
for (const name of Object.keys(template.dependencies)) copy(name, root, false);
// What no running server reads: the packages' tests, benchmarks, docs, examples, type
// declarations and source maps (their licences stay). Four fifths of what they publish.
const prune = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (UNUSED_DIRS.has(entry.name)) rmSync(path, { recursive: true, force: true });
      else prune(path);
    } else if (UNUSED_FILES.test(entry.name) && !/^licen[cs]e/i.test(entry.name)) rmSync(path);
  }
};
const UNUSED_DIRS = new Set(['test', 'tests', '__tests__', 'benchmarks', 'bench', 'docs', 'examples', 'example', '.github']);
const UNUSED_FILES = /(\.map|\.d\.[cm]?ts|\.ts|\.md|\.markdown|tsconfig\.json|\.ico|\.png|\.svg|\.yml|\.yaml)$/i;
prune(join(stage, 'node_modules'));

// 4. The tarball.
const packed = JSON.parse(
  execFileSync('npm', ['pack', '--json', '--pack-destination', out], { cwd: stage, encoding: 'utf8' }),
)[0];
const tarball = join(out, packed.filename);
const figures = {
  tarball: outAt > 0 ? tarball : relative(root, tarball),
  size_kb: Math.round(statSync(tarball).size / 102.4) / 10,
  unpacked_kb: Math.round(packed.unpackedSize / 102.4) / 10,
  files: packed.entryCount,
  bundle_kb: Math.round(packed.files.filter((f) => f.path.startsWith('lib/')).reduce((n, f) => n + f.size, 0) / 102.4) / 10,
  dependencies_copied: copied.size,
};
// What was staged is in the tarball: the folder left holds the tarball and the list of inputs
// (a container's build context, packaging/container/Containerfile).
rmSync(stage, { recursive: true, force: true });
if (process.argv.includes('--json')) console.log(JSON.stringify(figures));
else
  console.log(
    `${figures.tarball}: ${figures.size_kb} KB (${figures.unpacked_kb} KB unpacked, ${figures.files} files; ` +
      `the cloud's bundle ${figures.bundle_kb} KB, ${figures.dependencies_copied} packages of pg, pino and prom-client)`,
  );

#!/usr/bin/env node
// The `tidings` command. The sources are TypeScript run by Node 24's type stripping (the Node
// that Electron 45 bundles), so there is no build step. On an older Node, re-run ourselves on the
// Node 24 that the package brings as a dependency.
// The re-run is a child that stands in for us: signals are forwarded, we exit as it exits, and it
// stops if we die (scripts/child-process.cjs).
'use strict';
const path = require('node:path');
const fs = require('node:fs');
const { runAsChild, watchParent } = require('../scripts/child-process.cjs');
const { bundledNode, nodeVersionProblem } = require('../scripts/node-version.cjs');

const tooOld = nodeVersionProblem(path.join(__dirname, '..'));
if (tooOld) relaunch(tooOld);
else run();

function relaunch(why) {
  const bundled = bundledNode(path.join(__dirname, '..'));
  if (!fs.existsSync(bundled)) {
    console.error(`tidings: ${why}`);
    process.exit(1);
  }
  runAsChild(bundled, [__filename, ...process.argv.slice(2)]);
}

function run() {
  watchParent();
  // Node keeps the compiled (and type-stripped) modules in its cache folder (in the system's temp
  // folder): every later command starts in about half the time (0.5 s -> 0.25 s for `tidings cloud`).
  require('node:module').enableCompileCache?.();
  import(require('node:url').pathToFileURL(path.join(__dirname, '..', 'src', 'cli', 'cli.ts')).href)
    .then((cli) => cli.main(process.argv.slice(2)))
    .then((code) => {
      process.exitCode = code;
    })
    .catch((e) => {
      console.error(`tidings: ${e?.message ? e.message : e}`);
      process.exitCode = 1;
    });
}

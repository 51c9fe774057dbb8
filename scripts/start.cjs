#!/usr/bin/env node
// `npm start`: build, then run the Electron app where its binary can be had; otherwise say why in
// one line and start browser mode instead (the same core and window, served on 127.0.0.1).
// Either way the app runs as our child: Ctrl-C and kill reach it, we exit when it exits, and it
// stops if we die (scripts/child-process.cjs).
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { runAsChild } = require('./child-process.cjs');
const { electronBinary } = require('./electron-binary.cjs');
const { nodeVersionProblem } = require('./node-version.cjs');

const root = path.join(__dirname, '..');

async function main() {
  const wrongNode = nodeVersionProblem(root);
  if (wrongNode) throw new Error(wrongNode);
  const build = spawnSync(path.join(root, 'node_modules', '.bin', 'electron-vite'), ['build'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) {
    console.error('tidings: the build failed; see the messages above.');
    process.exit(1);
  }
  const electron = await electronBinary(root);
  if (electron.path) {
    runAsChild(electron.path, ['.', ...process.argv.slice(2)], { node: false, spawn: { cwd: root } });
    return;
  }
  console.log(`Electron is not available here: ${electron.why}. Starting browser mode instead.`);
  runAsChild(process.execPath, [path.join(root, 'bin', 'tidings.cjs'), 'serve', ...process.argv.slice(2)], {
    spawn: { cwd: root },
  });
}

main().catch((e) => {
  console.error(`tidings: ${e && e.message ? e.message : e}`);
  process.exit(1);
});

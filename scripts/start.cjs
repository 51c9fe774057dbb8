#!/usr/bin/env node
// `npm start`: build, then run the Electron app where its binary can be had; otherwise say why in
// one line and start browser mode instead (the same core and window, served on 127.0.0.1).
'use strict';
const { spawnSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  return r.status === 0;
}

/** The Electron binary, downloading it once if this machine can (Electron 45 has no postinstall). */
function electronBinary() {
  if (process.env.ELECTRON_EXEC_PATH) {
    return fs.existsSync(process.env.ELECTRON_EXEC_PATH)
      ? { path: process.env.ELECTRON_EXEC_PATH }
      : { why: `ELECTRON_EXEC_PATH=${process.env.ELECTRON_EXEC_PATH} does not exist` };
  }
  const dir = path.join(root, 'node_modules', 'electron');
  const located = () => {
    const pathFile = path.join(dir, 'path.txt');
    if (!fs.existsSync(pathFile)) return null;
    const full = path.join(dir, 'dist', fs.readFileSync(pathFile, 'utf8').trim());
    return fs.existsSync(full) ? full : null;
  };
  let found = located();
  if (!found) {
    console.log('Fetching the Electron binary (first run)…');
    const r = spawnSync(process.execPath, [path.join(dir, 'install.js')], {
      cwd: root,
      encoding: 'utf8',
      timeout: 5 * 60 * 1000,
    });
    found = located();
    if (!found) {
      const reason = `${r.stderr || r.stdout || ''}`.trim().split('\n').pop() || 'download failed';
      return { why: `the Electron binary could not be downloaded (${reason})` };
    }
  }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { why: 'there is no display (DISPLAY is not set) for a desktop window' };
  }
  return { path: found };
}

if (!run(bin('electron-vite'), ['build'])) {
  console.error('tidings: the build failed; see the messages above.');
  process.exit(1);
}

const electron = electronBinary();
if (electron.path) {
  const child = spawn(electron.path, ['.', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  console.log(`Electron is not available here: ${electron.why}. Starting browser mode instead.`);
  const child = spawn(process.execPath, [path.join(root, 'bin', 'tidings.cjs'), 'serve', ...process.argv.slice(2)], {
    cwd: root,
    stdio: 'inherit',
  });
  const forward = (sig) => child.kill(sig);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code) => process.exit(code ?? 0));
}

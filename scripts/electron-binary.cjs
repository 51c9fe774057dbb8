// Finding the Electron binary for `npm start` (Electron 45 has no postinstall: its binary is
// downloaded on first use). The download is tried when it was never tried, or when it failed
// before and the download server answers now; otherwise `npm start` says, in one readable line,
// why there is no window and goes on in browser mode. The outcome of the last try is kept in
// node_modules/.cache/tidings/electron-download.json.
'use strict';
const { spawnSync } = require('node:child_process');
const dns = require('node:dns');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const DOWNLOAD_TIMEOUT_MS = 5 * 60 * 1000;

/** The binary's path when it has been downloaded already, else null. */
function locate(root) {
  const dir = path.join(root, 'node_modules', 'electron');
  const pathFile = path.join(dir, 'path.txt');
  if (!fs.existsSync(pathFile)) return null;
  const full = path.join(dir, 'dist', fs.readFileSync(pathFile, 'utf8').trim());
  return fs.existsSync(full) ? full : null;
}

/**
 * One short sentence from the installer's output (an error's stack, often with the real cause
 * further down): what a person can act on, never a stack frame.
 */
function readableReason(output) {
  const text = String(output || '');
  const dnsFail = /(?:ENOTFOUND|EAI_AGAIN)\s+([\w.-]+)?/.exec(text);
  if (dnsFail) return `no network: ${dnsFail[1] ? `${dnsFail[1]} could not be looked up` : 'a name lookup failed'}`;
  const net = /\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|UND_ERR_CONNECT_TIMEOUT)\b/.exec(text);
  if (net) return `the download server could not be reached (${net[1]})`;
  const status = /(?:Response code|status(?: code)?)\D{0,3}(\d{3})/i.exec(text);
  if (status) return `the download server answered HTTP ${status[1]}`;
  if (/\b(?:EACCES|EPERM)\b/.test(text)) return 'no permission to write into node_modules/electron';
  if (/\bENOSPC\b/.test(text)) return 'the disk is full';
  if (/checksum/i.test(text)) return 'the downloaded file did not match its checksum';
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '' && !/^at\s/.test(l) && !/^\^+$/.test(l) && !/^node:/.test(l) && !/^\{|^\}/.test(l));
  if (!line) return 'the download failed';
  const message = line.replace(/^(?:\w*Error|Error)(?:\s*\[\w+\])?:\s*/, '');
  if (/^fetch failed$/i.test(message)) return 'no network to download it from (fetch failed)';
  return message.length > 160 ? `${message.slice(0, 157)}...` : message;
}

/** Where @electron/get downloads from (a mirror when one is configured). */
function downloadHost(env = process.env) {
  const mirror = env.ELECTRON_MIRROR || env.npm_config_electron_mirror;
  try {
    return new URL(mirror || 'https://github.com/').hostname;
  } catch {
    return 'github.com';
  }
}

/** Whether a TCP connection to host:443 opens within `ms` (a cheap "could a download work?"). */
function canReach(host, ms = 3000) {
  return new Promise((resolve) => {
    dns.lookup(host, (err, address) => {
      if (err) return resolve(false);
      const socket = net.connect({ host: address, port: 443 });
      const done = (ok) => {
        socket.destroy();
        resolve(ok);
      };
      socket.setTimeout(ms, () => done(false));
      socket.once('connect', () => done(true));
      socket.once('error', () => done(false));
    });
  });
}

function markerPath(root) {
  return path.join(root, 'node_modules', '.cache', 'tidings', 'electron-download.json');
}

function readMarker(root) {
  try {
    return JSON.parse(fs.readFileSync(markerPath(root), 'utf8'));
  } catch {
    return null;
  }
}

function writeMarker(root, value) {
  try {
    fs.mkdirSync(path.dirname(markerPath(root)), { recursive: true });
    fs.writeFileSync(markerPath(root), `${JSON.stringify(value)}\n`);
  } catch {
    // Not being able to remember only means trying again next time.
  }
}

/**
 * { path } of the binary, or { why } it cannot be had. deps are for tests: the download, the
 * reachability check, the log.
 */
async function electronBinary(root, deps = {}) {
  const env = deps.env || process.env;
  const log = deps.log || ((line) => console.log(line));
  const reachable = deps.canReach || canReach;
  const download =
    deps.download ||
    (() => {
      const r = spawnSync(process.execPath, [path.join(root, 'node_modules', 'electron', 'install.js')], {
        cwd: root,
        encoding: 'utf8',
        timeout: DOWNLOAD_TIMEOUT_MS,
      });
      if (r.error && r.error.code === 'ETIMEDOUT') return { ok: false, output: 'the download took longer than 5 minutes' };
      return { ok: r.status === 0, output: `${r.stderr || ''}\n${r.stdout || ''}` };
    });

  if (env.ELECTRON_EXEC_PATH) {
    return fs.existsSync(env.ELECTRON_EXEC_PATH)
      ? { path: env.ELECTRON_EXEC_PATH }
      : { why: `ELECTRON_EXEC_PATH=${env.ELECTRON_EXEC_PATH} does not exist` };
  }
  let found = locate(root);
  if (!found) {
    const last = readMarker(root);
    if (!last) {
      log('Fetching the Electron binary (first run)…');
    } else {
      const host = downloadHost(env);
      if (!(await reachable(host))) {
        return { why: `the Electron binary is not downloaded and ${host} cannot be reached (last try: ${last.reason})` };
      }
      log(`Fetching the Electron binary (the last try failed: ${last.reason}; ${host} answers now)…`);
    }
    const r = download();
    found = locate(root);
    if (!found) {
      const reason = r.ok ? 'the download left no binary' : readableReason(r.output);
      writeMarker(root, { at: new Date().toISOString(), reason });
      return { why: `the Electron binary could not be downloaded (${reason})` };
    }
  }
  if (process.platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) {
    return { why: 'there is no display (DISPLAY is not set) for a desktop window' };
  }
  return { path: found };
}

module.exports = { electronBinary, readableReason, downloadHost, locate, markerPath };

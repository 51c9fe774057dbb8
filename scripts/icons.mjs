#!/usr/bin/env node
// `npm run icons`: renders resources/icon.svg (and the small tray and badge drawings below) to
// every image each platform needs, and packs the Windows .ico and macOS .icns. The outputs are
// committed; run this again only after changing a drawing. Renderer: @resvg/resvg-js (pinned).
//   resources/icon.png, icons/NxN.png     Linux (AppImage, deb) and electron-builder's source
//   resources/icon.ico                    Windows (16-256, PNG entries)
//   resources/icon.icns                   macOS (16-1024, with @2x)
//   resources/runtime/icon.png            the window and notification icon
//   resources/runtime/tray/*.png          tray icons (colour; macOS template images), @2x
//   resources/runtime/badges/*.png        the Windows taskbar overlay: 1-9, 9+
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const res = (...p) => join(root, 'resources', ...p);

function png(svg, size) {
  return new Resvg(svg, { fitTo: { mode: 'width', value: size }, background: 'rgba(0,0,0,0)' }).render().asPng();
}

function write(path, data) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, data);
}

// --- the app icon ---------------------------------------------------------------------------
const icon = readFileSync(res('icon.svg'), 'utf8');
const sizes = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
const bySize = new Map(sizes.map((s) => [s, png(icon, s)]));
for (const [s, data] of bySize) write(res('icons', `${s}x${s}.png`), data);
write(res('icon.png'), bySize.get(1024));
write(res('runtime', 'icon.png'), bySize.get(256));

/** ICO with PNG-compressed entries (Windows Vista and later read them). */
function ico(entries) {
  const header = Buffer.alloc(6 + 16 * entries.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(entries.length, 4);
  let offset = header.length;
  entries.forEach(([size, data], i) => {
    const at = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, at);
    header.writeUInt8(size >= 256 ? 0 : size, at + 1);
    header.writeUInt8(0, at + 2);
    header.writeUInt8(0, at + 3);
    header.writeUInt16LE(1, at + 4);
    header.writeUInt16LE(32, at + 6);
    header.writeUInt32LE(data.length, at + 8);
    header.writeUInt32LE(offset, at + 12);
    offset += data.length;
  });
  return Buffer.concat([header, ...entries.map(([, d]) => d)]);
}
write(res('icon.ico'), ico([16, 24, 32, 48, 64, 128, 256].map((s) => [s, bySize.get(s)])));

/** ICNS with PNG entries: the OSTypes macOS reads for 16-1024 and their @2x forms. */
function icns(entries) {
  const chunks = entries.map(([type, data]) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(8 + data.length, 4);
    return Buffer.concat([head, data]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(8 + chunks.reduce((n, c) => n + c.length, 0), 4);
  return Buffer.concat([head, ...chunks]);
}
write(
  res('icon.icns'),
  icns([
    ['icp4', bySize.get(16)],
    ['icp5', bySize.get(32)],
    ['icp6', bySize.get(64)],
    ['ic07', bySize.get(128)],
    ['ic08', bySize.get(256)],
    ['ic09', bySize.get(512)],
    ['ic10', bySize.get(1024)],
    ['ic11', bySize.get(32)],
    ['ic12', bySize.get(64)],
    ['ic13', bySize.get(256)],
    ['ic14', bySize.get(512)],
  ]),
);

// --- tray -----------------------------------------------------------------------------------
// The feed mark alone, drawn on a 32-unit grid so it stays crisp at 16 and 32 px.
const mark = (colour, dot) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
  <g fill="none" stroke="${colour}" stroke-linecap="round" stroke-width="4">
    <path d="M6 14 A 12 12 0 0 1 18 26"/><path d="M6 5 A 21 21 0 0 1 27 26"/>
  </g>
  <circle cx="8" cy="24" r="3.4" fill="${colour}"/>
  ${dot ? `<circle cx="26" cy="7" r="6" fill="${dot}"/>` : ''}
</svg>`;
const trays = {
  'tray.png': mark('#2b59e0', null),
  'tray-unread.png': mark('#2b59e0', '#f97316'),
  // macOS template images: black and alpha only; the menu bar recolours them.
  'trayTemplate.png': mark('#000000', null),
  'trayUnreadTemplate.png': mark('#000000', '#000000'),
};
for (const [name, svg] of Object.entries(trays)) {
  write(res('runtime', 'tray', name), png(svg, 16));
  write(res('runtime', 'tray', name.replace('.png', '@2x.png')), png(svg, 32));
}

// --- Windows taskbar overlay badges -----------------------------------------------------------
// Digits as strokes (no font needed, so every machine renders the same pixels).
const DIGITS = {
  1: 'M9 5 L12 3 L12 13',
  2: 'M8 5 Q12 1 15 5 Q16 8 8 13 L16 13',
  3: 'M8 4 Q12 1 15 4 Q16 7 12 8 Q16 9 15 12 Q12 15 8 12',
  4: 'M14 13 L14 3 L7 10 L16 10',
  5: 'M15 3 L9 3 L8 8 Q12 6 15 9 Q16 13 12 13 Q9 13 8 12',
  6: 'M15 4 Q11 1 9 5 Q7 10 9 12 Q12 15 15 12 Q16 9 13 8 Q10 7 8.5 9',
  7: 'M8 3 L16 3 L11 13',
  8: 'M12 8 Q8 7 8.5 4.5 Q9.5 2.5 12 2.5 Q14.5 2.5 15.5 4.5 Q16 7 12 8 Q7.5 9 8 11.5 Q9 13.5 12 13.5 Q15 13.5 16 11.5 Q16.5 9 12 8',
  9: 'M15.5 7 Q14 9 11 9 Q8 8.5 8 5.5 Q8.5 3 12 2.5 Q15.5 3 15.5 7 Q15.5 11 13 13 Q11 14 9 12.5',
};
const badge = (path, plus) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 16">
  <circle cx="12" cy="8" r="7.6" fill="#dc2626"/>
  <g fill="none" stroke="#ffffff" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"
     transform="${plus ? 'translate(-2.5 0)' : ''}"><path d="${path}"/></g>
  ${plus ? '<path d="M16.5 6 V10 M14.5 8 H18.5" stroke="#ffffff" stroke-width="1.6" stroke-linecap="round"/>' : ''}
</svg>`;
for (const [n, path] of Object.entries(DIGITS)) {
  write(res('runtime', 'badges', `badge-${n}.png`), png(badge(path, false), 24));
}
write(res('runtime', 'badges', 'badge-9plus.png'), png(badge(DIGITS[9], true), 24));
console.log('icons written under resources/');

/**
 * The packaged app. Where an Electron build is on this machine (ELECTRON_DIST, or the one the
 * electron package downloaded) electron-builder --dir packs the real thing; where it is not (these
 * build machines cannot download it), a stand-in executable takes its place, so the app's own
 * archive is still built by the real electron-builder and checked: what is in it, what is not.
 * What a stand-in cannot show is printed to the log.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const build = pkg.build;
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);

/** Width and height from a PNG's IHDR. */
function pngSize(data: Buffer): { width: number; height: number } {
  expect(data.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

describe('packaging configuration', () => {
  it('builds Linux AppImage + deb, a universal macOS dmg and a Windows installer, each with its icon', () => {
    expect(build.linux.target).toEqual(['AppImage', 'deb']);
    expect(build.mac.target).toEqual([{ target: 'dmg', arch: ['universal'] }]);
    expect(build.win.target).toEqual(['nsis']);
    expect(existsSync(join(ROOT, build.mac.icon))).toBe(true);
    expect(existsSync(join(ROOT, build.win.icon))).toBe(true);
    expect(existsSync(join(ROOT, build.linux.icon))).toBe(true);
    expect(pkg.scripts.dist).toMatch(/electron-vite build && electron-builder/);
  });

  it('packs only the build output into an asar, rebuilds nothing native, and hardens the binary', () => {
    expect(build.asar).toBe(true);
    expect(build.asarUnpack).toBeUndefined();
    expect(build.npmRebuild).toBe(false);
    const included = build.files.filter((f: string) => !f.startsWith('!'));
    expect(included).toEqual(['out/**', 'package.json']);
    expect(build.extraResources).toEqual([{ from: 'resources/runtime', to: 'runtime' }]);
    expect(build.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('registers feed: and feeds: links and .opml files with the system', () => {
    expect(build.protocols).toEqual([{ name: 'Feed link', schemes: ['feed', 'feeds'] }]);
    expect(build.fileAssociations).toEqual([
      expect.objectContaining({ ext: 'opml', mimeType: 'text/x-opml' }),
    ]);
    // Linux matches the badge (Unity launcher API) to the desktop file by this name.
    expect(pkg.desktopName).toBe(`${build.executableName}.desktop`);
  });
});

describe('icons and runtime resources', () => {
  it('has every Linux size, rendered from the one drawing', () => {
    for (const size of [16, 24, 32, 48, 64, 128, 256, 512, 1024]) {
      expect(pngSize(readFileSync(join(ROOT, `resources/icons/${size}x${size}.png`)))).toEqual({
        width: size,
        height: size,
      });
    }
    expect(pngSize(readFileSync(join(ROOT, 'resources/icon.png')))).toEqual({ width: 1024, height: 1024 });
    expect(readFileSync(join(ROOT, 'resources/icon.svg'), 'utf8')).toMatch(/^<svg /);
  });

  it('the Windows .ico holds 16-256 px images', () => {
    const ico = readFileSync(join(ROOT, 'resources/icon.ico'));
    expect(ico.readUInt16LE(2)).toBe(1);
    const count = ico.readUInt16LE(4);
    const sizes: number[] = [];
    for (let i = 0; i < count; i++) {
      const at = 6 + 16 * i;
      const size = ico.readUInt8(at) || 256;
      const length = ico.readUInt32LE(at + 8);
      const offset = ico.readUInt32LE(at + 12);
      expect(pngSize(ico.subarray(offset, offset + length))).toEqual({ width: size, height: size });
      sizes.push(size);
    }
    expect(sizes).toEqual([16, 24, 32, 48, 64, 128, 256]);
  });

  it('the macOS .icns holds 16-1024 px images, @2x included', () => {
    const icns = readFileSync(join(ROOT, 'resources/icon.icns'));
    expect(icns.subarray(0, 4).toString('ascii')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const found = new Map<string, number>();
    for (let at = 8; at < icns.length; ) {
      const type = icns.subarray(at, at + 4).toString('ascii');
      const length = icns.readUInt32BE(at + 4);
      found.set(type, pngSize(icns.subarray(at + 8, at + length)).width);
      at += length;
    }
    expect(Object.fromEntries(found)).toEqual({
      icp4: 16,
      icp5: 32,
      icp6: 64,
      ic07: 128,
      ic08: 256,
      ic09: 512,
      ic10: 1024,
      ic11: 32,
      ic12: 64,
      ic13: 256,
      ic14: 512,
    });
  });

  it('has the tray icons (and @2x), the taskbar badges and the suggested subscriptions', () => {
    for (const name of ['tray', 'tray-unread', 'trayTemplate', 'trayUnreadTemplate']) {
      expect(pngSize(readFileSync(join(ROOT, `resources/runtime/tray/${name}.png`))).width).toBe(16);
      expect(pngSize(readFileSync(join(ROOT, `resources/runtime/tray/${name}@2x.png`))).width).toBe(32);
    }
    for (const n of ['1', '2', '3', '4', '5', '6', '7', '8', '9', '9plus']) {
      expect(pngSize(readFileSync(join(ROOT, `resources/runtime/badges/badge-${n}.png`))).width).toBe(24);
    }
    const opml = readFileSync(join(ROOT, 'resources/runtime/suggested-feeds.opml'), 'utf8');
    expect(opml.match(/xmlUrl="https?:\/\//g)?.length).toBeGreaterThanOrEqual(6);
  });
});

/** An unpacked Electron this machine has, if any. */
function realElectronDist(): string | null {
  if (process.env.ELECTRON_DIST && existsSync(process.env.ELECTRON_DIST)) return process.env.ELECTRON_DIST;
  const pathFile = join(ROOT, 'node_modules/electron/path.txt');
  const dist = join(ROOT, 'node_modules/electron/dist');
  return existsSync(pathFile) && existsSync(join(dist, readFileSync(pathFile, 'utf8').trim())) ? dist : null;
}

describe('electron-builder --dir', () => {
  let work = '';
  let asarFiles: string[] = [];
  let appDir = '';
  const realDist = realElectronDist();

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'tidings-pack-'));
    if (!existsSync(join(ROOT, 'out/main/index.js'))) {
      expect(spawnSync(bin('electron-vite'), ['build'], { cwd: ROOT }).status).toBe(0);
    }
    const config = { ...build, directories: { ...build.directories, output: join(work, 'dist') } };
    if (realDist) {
      config.electronDist = realDist;
    } else {
      // A stand-in executable: electron-builder copies it and packs the app beside it. Fuses
      // cannot be flipped on it, so that step is left out (and said below).
      const fake = join(work, 'electron-dist');
      spawnSync('mkdir', ['-p', fake]);
      writeFileSync(join(fake, 'electron'), '#!/bin/sh\necho stand-in\n', { mode: 0o755 });
      config.electronDist = fake;
      delete config.electronFuses;
      console.log(
        'packaging: no Electron build on this machine (set ELECTRON_DIST or download it); electron-builder ' +
          '--dir ran with a stand-in executable. Not checked here: the fuses flipped on the real binary, ' +
          'that the packed app starts, and the installers (AppImage, deb, dmg, nsis), which need the ' +
          'Electron zips from the network.',
      );
    }
    config.electronVersion = pkg.devDependencies.electron;
    const configFile = join(work, 'builder.json');
    writeFileSync(configFile, JSON.stringify(config));
    const r = spawnSync(
      bin('electron-builder'),
      ['--dir', '--linux', '--config', configFile, '--publish', 'never'],
      {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 180_000,
      },
    );
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    appDir = join(work, 'dist', 'linux-unpacked');
    const asar = createRequire(import.meta.url)('@electron/asar') as { listPackage(p: string): string[] };
    asarFiles = asar.listPackage(join(appDir, 'resources', 'app.asar')).map((f) => f.replace(/^[\\/]/, ''));
  }, 240_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('the app archive holds the build output and no dev dependency, test or native module', () => {
    for (const f of [
      'out/main/index.js',
      'out/preload/index.js',
      'out/renderer/index.html',
      'package.json',
    ]) {
      expect(asarFiles).toContain(f);
    }
    const modules = new Set(
      asarFiles
        .filter((f) => f.startsWith('node_modules/'))
        .map((f) =>
          f
            .split('/')
            .slice(1, f.split('/')[1]?.startsWith('@') ? 3 : 2)
            .join('/'),
        ),
    );
    // A dev dependency's name may still ship when a runtime dependency needs its own copy
    // (linkedom's htmlparser2 10, beside the benches' htmlparser2 12): the lockfile says which.
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const neededAtRuntime = new Set(
      Object.entries(lock.packages)
        .filter(([path, p]) => path !== '' && p.dev !== true)
        .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)),
    );
    for (const dev of Object.keys(pkg.devDependencies).filter((d) => !neededAtRuntime.has(d)))
      expect(modules.has(dev), dev).toBe(false);
    // The renderer's libraries are bundled into its files: no copies beside main.
    for (const rendererOnly of ['react', 'react-dom', 'zustand', 'dompurify'])
      expect(modules.has(rendererOnly)).toBe(false);
    expect(asarFiles.filter((f) => /\.(test|spec)\.[cm]?[jt]s$/.test(f) || f.includes('/testdata/'))).toEqual(
      [],
    );
    expect(asarFiles.filter((f) => f.endsWith('.node'))).toEqual([]);
    expect(
      asarFiles.filter((f) => f.startsWith('src/') || f.startsWith('main/') || f.startsWith('e2e/')),
    ).toEqual([]);
  });

  it('every package main loads at run time is in the archive', () => {
    const mainJs = readFileSync(join(ROOT, 'out/main/index.js'), 'utf8');
    const wanted = new Set<string>();
    for (const m of mainJs.matchAll(/require\("([^"./][^"]*)"\)/g)) wanted.add(m[1]!);
    for (const m of mainJs.matchAll(/createRequire\)\(.*?\)\("([^"]+)"\)/g)) wanted.add(m[1]!);
    const packages = [...wanted]
      .filter(
        (id) => !id.startsWith('node:') && id !== 'electron' && !['url', 'path', 'fs', 'os'].includes(id),
      )
      .map((id) =>
        id
          .split('/')
          .slice(0, id.startsWith('@') ? 2 : 1)
          .join('/'),
      );
    expect(packages).toContain('localtunnel');
    for (const name of packages) expect(asarFiles, name).toContain(`node_modules/${name}/package.json`);
  });

  it('the runtime resources sit outside the archive, where main looks for them', () => {
    for (const f of [
      'tray/tray.png',
      'tray/tray@2x.png',
      'badges/badge-9plus.png',
      'icon.png',
      'suggested-feeds.opml',
    ]) {
      expect(existsSync(join(appDir, 'resources', 'runtime', f)), f).toBe(true);
    }
    expect(existsSync(join(appDir, build.executableName))).toBe(true);
  });
});

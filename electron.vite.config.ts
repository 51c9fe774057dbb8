import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

// Top-level main/ and renderer/ (not electron-vite's src/main default), so every input is explicit.
// ESM-only deps used by main (electron-store, conf) are bundled, not externalised (ENVIRONMENT.md).
export default defineConfig({
  main: {
    build: {
      externalizeDeps: { exclude: ['electron-store', 'conf'] },
      rollupOptions: {
        // Worker threads are entries of their own, found beside index.js: the feed parser's
        // (src/feed/parse-pool.ts) and the backup's SQLite work (src/backup/off-thread.ts).
        input: {
          index: resolve(__dirname, 'main/index.ts'),
          'parse-worker': resolve(__dirname, 'src/feed/parse-worker.ts'),
          // The reader view's article extraction, likewise (src/fulltext/extract-pool.ts).
          'extract-worker': resolve(__dirname, 'src/fulltext/extract-worker.ts'),
          // A backup's and a restore's SQLite work (src/backup/off-thread.ts), likewise.
          'backup-worker': resolve(__dirname, 'src/backup/backup-worker.ts'),
        },
        external: ['node:sqlite'],
      },
    },
  },
  preload: {
    build: {
      rollupOptions: {
        input: { index: resolve(__dirname, 'main/preload.ts') },
        output: { format: 'cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    // Relative asset paths: Electron loads the window over file://, browser mode serves it at /.
    base: './/',
    plugins: [react({})],
    build: {
      // electron-vite leaves the renderer unminified; the window loads faster minified. For a
      // readable CPU profile (bench:river's RIVER_BENCH_PROFILE=1), build with TIDINGS_NO_MINIFY=1;
      // TIDINGS_SOURCEMAP=1 adds source maps (to see what each dependency weighs).
      minify: process.env.TIDINGS_NO_MINIFY !== '1',
      sourcemap: process.env.TIDINGS_SOURCEMAP === '1',
      rollupOptions: { input: { index: resolve(__dirname, 'renderer/index.html') } },
    },
  },
});

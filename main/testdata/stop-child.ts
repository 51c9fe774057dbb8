/**
 * The app's stop path in a plain Node process (the Electron binary is not needed for it): the
 * core, the same createAppStop + installSignalHandlers that main/index.ts uses, and a refresh.
 *   node main/testdata/stop-child.ts <dataDir> import <opmlFile>   subscribe to every feed, fetch them all
 *   node main/testdata/stop-child.ts <dataDir> finish              refresh all, wait, stop cleanly
 * Prints "items N" (new items so far) as they reach the river, "refreshing", "idle".
 */
import { readFileSync } from 'node:fs';
import { createTidings } from '../../src/app/tidings.ts';
import { createAppStop } from '../app-stop.ts';
import { installSignalHandlers } from '../shutdown.ts';

const [dataDir, mode, opmlFile] = process.argv.slice(2);
if (!dataDir || (mode !== 'import' && mode !== 'finish')) {
  console.error('usage: stop-child.ts <dataDir> import <opml> | finish');
  process.exit(2);
}
const core = createTidings({ dataDir });
const stop = createAppStop({
  core,
  exit: (code) => process.exit(code),
  log: (line) => process.stderr.write(`${line}\n`),
});
installSignalHandlers(process, stop);
let items = 0;
core.on('river.changed', ({ newItems }) => {
  items += newItems;
  process.stdout.write(`items ${items}\n`);
});
core.start();
if (mode === 'import') {
  const report = await core.importOpml(readFileSync(opmlFile!, 'utf8'));
  if (!report.ok) throw new Error(report.error.message);
  process.stdout.write('refreshing\n');
} else {
  await core.refresh(null);
  process.stdout.write('refreshing\n');
  await core.context.scheduler.idle();
  process.stdout.write('idle\n');
  await stop.request('done');
}

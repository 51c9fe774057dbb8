// Child process for outbox.kill.test.ts: posts once, prints "posted <id>", then publishes until
// the test kills it with SIGKILL mid-save.
import { startHarness } from './harness.ts';

const [dir, settingsJson] = process.argv.slice(2);
const h = await startHarness(JSON.parse(settingsJson!), { dir: dir! });
const r = await h.publisher.post({ text: 'survives a kill -9' });
if (!r.ok) {
  process.stderr.write(`${r.error.message}\n`);
  process.exit(1);
}
process.stdout.write(`posted ${r.value.id}\n`);

// Child process for outbox.kill.test.ts: posts once (or `count` times before its outbox starts),
// prints "posted <id>" for each, then publishes until the test kills it with SIGKILL mid-send.
import { startHarness } from './harness.ts';

const [dir, settingsJson, countText] = process.argv.slice(2);
const count = Number(countText ?? 1);
const h = await startHarness(JSON.parse(settingsJson!), { dir: dir!, start: count === 1 });
for (let n = 1; n <= count; n++) {
  const r = await h.publisher.post({ text: count === 1 ? 'survives a kill -9' : `post ${n} of ${count}` });
  if (!r.ok) {
    process.stderr.write(`${r.error.message}\n`);
    process.exit(1);
  }
  process.stdout.write(`posted ${r.value.id}\n`);
}
if (count > 1) h.publisher.start();

// Child process for durability.test.ts: inserts batches forever, reporting each committed total
// on stdout, until the test kills it with SIGKILL.
import { openStore } from '../store.ts';
import { makeItem } from '../test-support.ts';

const [path, batchArg] = process.argv.slice(2);
const batch = Number(batchArg);
const store = openStore(path!);
const { feed } = store.addFeed({ url: 'https://durable.example/feed' });
for (let n = 0; ; n++) {
  const items = Array.from({ length: batch }, (_, i) =>
    makeItem(`${n}-${i}`, { summary: `<p>${'durable text '.repeat(20)} ${n} ${i}</p>` }),
  );
  store.upsertItems(feed.id, items, n);
  if (n % 5 === 0) store.markRead([n * batch + 1], true);
  process.stdout.write(`${(n + 1) * batch}\n`);
}

// Child process for folder-disk.test.ts, run inside `unshare -Urm` with a tiny tmpfs mounted at
// the folder target: posts once and reports the folder save's state as JSON lines.
//   full: the disk is filled first; after the first failure the filler is removed (space again).
//   ro:   the tmpfs is mounted read-only by the shell before this starts.
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness } from './harness.ts';

const [dir, folder, mode] = process.argv.slice(2) as [string, string, 'full' | 'ro'];
const say = (o: object) => process.stdout.write(`${JSON.stringify(o)}\n`);

if (mode === 'full') {
  const fd = openSync(join(folder, 'filler'), 'w');
  try {
    for (;;) writeSync(fd, Buffer.alloc(4096, 1));
  } catch {
    // ENOSPC: the disk is full now.
  }
  closeSync(fd); // an open file keeps its space even once removed

}
const h = await startHarness(
  { hosting: { enabled: false, private: null }, folder: { enabled: true, path: folder, publicUrl: 'https://me.example.com/' } },
  { dir },
);
const r = await h.publisher.post({ text: 'a post for a difficult disk' });
if (!r.ok) throw new Error(r.error.message);
const save = () => h.publisher.get(r.value.id)!.saves[0]!;
const until = async (ok: (s: ReturnType<typeof save>) => boolean) => {
  const deadline = Date.now() + 10_000;
  while (!ok(save())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(save())}`);
    await new Promise((res) => setTimeout(res, 20));
  }
};
await until((s) => s.ok === false);
say({ failed: save() });
if (mode === 'full') {
  rmSync(join(folder, 'filler'));
  await until((s) => s.ok === true);
  say({ saved: save() });
}
await h.close();

import { expect, it } from 'vitest';
import type { LaunchRequest } from './launch-args.ts';
import { createLaunchQueue } from './launch-queue.ts';

function setup() {
  const delivered: LaunchRequest[] = [];
  let focused = 0;
  const queue = createLaunchQueue({ deliver: (r) => delivered.push(r), focus: () => focused++, skip: 1 });
  return { queue, delivered, focused: () => focused };
}

it('holds the first launch requests until the window is ready, then delivers them in order', () => {
  const { queue, delivered, focused } = setup();
  queue.fromOwnArgv(['tidings', 'feed://a.example/rss', 'subs.opml'], '/home/ann');
  expect(delivered).toEqual([]);
  expect(queue.pending()).toHaveLength(2);
  queue.ready();
  expect(delivered).toEqual([
    { kind: 'subscribe', url: 'http://a.example/rss' },
    { kind: 'import', path: '/home/ann/subs.opml' },
  ]);
  expect(focused()).toBe(0);
});

it('a second launch focuses the first and hands over its arguments, resolved against its own folder', () => {
  const { queue, delivered, focused } = setup();
  queue.ready();
  queue.secondInstance(['/opt/Tidings/tidings', '--no-sandbox', 'list.opml'], '/tmp/other');
  expect(focused()).toBe(1);
  expect(delivered).toEqual([{ kind: 'import', path: '/tmp/other/list.opml' }]);
  // A plain second launch still brings the window forward.
  queue.secondInstance(['/opt/Tidings/tidings'], '/');
  expect(focused()).toBe(2);
  expect(delivered).toHaveLength(1);
});

it('a window that reloads holds new requests until it is ready again', () => {
  const { queue, delivered } = setup();
  queue.ready();
  queue.notReady();
  queue.add([{ kind: 'subscribe', url: 'https://b.example/feed' }]);
  expect(delivered).toEqual([]);
  queue.ready();
  expect(delivered).toEqual([{ kind: 'subscribe', url: 'https://b.example/feed' }]);
  expect(queue.pending()).toEqual([]);
});

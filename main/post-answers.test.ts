import { expect, it } from 'vitest';
import { PostAnswerWatcher } from './post-answers.ts';

it('one notification per cloud answer, none before it, none when the same answer repeats', () => {
  const watcher = new PostAnswerWatcher();
  expect(watcher.changed({ id: 1, text: 'Hello', cloudAnswer: null })).toBeNull();
  const ok = { ok: true, message: 'Thanks for the ping.', cloud: 'rpc.rsscloud.io' };
  expect(watcher.changed({ id: 1, text: 'Hello', cloudAnswer: ok })).toEqual({
    title: 'rpc.rsscloud.io took your post',
    body: 'Hello',
    target: { feedId: null, itemId: null },
  });
  expect(watcher.changed({ id: 1, text: 'Hello', cloudAnswer: ok })).toBeNull();
  const refused = { ok: false, message: 'The feed could not be read.', cloud: 'rpc.rsscloud.io' };
  expect(watcher.changed({ id: 1, text: 'Hello', cloudAnswer: refused })).toMatchObject({
    title: 'rpc.rsscloud.io refused your post',
    body: 'The feed could not be read.\nHello',
  });
});

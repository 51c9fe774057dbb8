/**
 * The posts mirror: 'post.changed' events and command answers race (WebSocket vs HTTP). An event
 * that beat the answer is newer (a post already 'published' must not fall back to 'queued'), a
 * deleted post is not revived by an older list, and the list stays newest first.
 */
import { describe, expect, it } from 'vitest';
import type { ApiResult, PostView } from '../../../src/app/api';
import { apiWith, deferred } from '../testing/fixtures';
import { createAppStore } from './store';

const post = (id: number, state: PostView['state'], createdAt = `2026-11-25T08:00:0${id}Z`): PostView => ({
  id,
  guid: `g${id}`,
  text: `Post ${id}`,
  link: null,
  enclosure: null,
  tags: [],
  children: [],
  createdAt,
  updatedAt: createdAt,
  state,
  saves: [],
  pings: [],
  cloudAnswer: null,
});

describe('posts slice', () => {
  it('keeps an event that arrived before the post command answered', async () => {
    const answer = deferred<ApiResult<PostView>>();
    const store = createAppStore(apiWith({ post: () => answer.promise }));
    const pending = store.getState().createPost({ text: 'Post 1' });
    store.getState().upsertPost(post(1, 'published'));
    answer.resolve({ ok: true, value: post(1, 'queued') });
    await pending;
    expect(store.getState().posts.map((p) => p.state)).toEqual(['published']);
  });

  it('takes the answer when no event came first', async () => {
    const store = createAppStore(apiWith({ post: async () => ({ ok: true, value: post(2, 'queued') }) }));
    const result = await store.getState().createPost({ text: 'Post 2' });
    expect(result.ok).toBe(true);
    expect(store.getState().posts.map((p) => [p.id, p.state])).toEqual([[2, 'queued']]);
  });

  it('leaves the list alone when the core refuses the post', async () => {
    const refusal = {
      ok: false as const,
      error: { code: 'too_long', message: 'The post is 141 characters' },
    };
    const store = createAppStore(apiWith({ post: async () => refusal }));
    expect(await store.getState().createPost({ text: 'x'.repeat(141) })).toEqual(refusal);
    expect(store.getState().posts).toEqual([]);
  });

  it('does not revive a post deleted while the list was on its way, nor drop newer events', async () => {
    const list = deferred<PostView[]>();
    const store = createAppStore(apiWith({ listPosts: () => list.promise }));
    const loading = store.getState().loadPosts();
    store.getState().upsertPost(post(1, 'published'));
    store.getState().removePost(2);
    list.resolve([post(3, 'queued'), post(2, 'published'), post(1, 'publishing')]);
    await loading;
    expect(store.getState().posts.map((p) => [p.id, p.state])).toEqual([
      [3, 'queued'],
      [1, 'published'],
    ]);
    expect(store.getState().postsStatus).toBe('ready');
    // A late event for the deleted post does not bring it back either.
    store.getState().upsertPost(post(2, 'published'));
    expect(store.getState().posts.map((p) => p.id)).toEqual([3, 1]);
  });

  it('orders posts newest first as events add them', () => {
    const store = createAppStore(apiWith({}));
    store.getState().upsertPost(post(1, 'queued'));
    store.getState().upsertPost(post(3, 'queued'));
    store.getState().upsertPost(post(2, 'queued'));
    expect(store.getState().posts.map((p) => p.id)).toEqual([3, 2, 1]);
  });

  it('removes a post only when the core agreed to delete it', async () => {
    let answer: ApiResult<true> = { ok: false, error: { code: 'not_found', message: 'No post 1' } };
    const store = createAppStore(apiWith({ deletePost: async () => answer }));
    store.getState().upsertPost(post(1, 'published'));
    await store.getState().deletePost(1);
    expect(store.getState().posts).toHaveLength(1);
    answer = { ok: true, value: true };
    await store.getState().deletePost(1);
    expect(store.getState().posts).toHaveLength(0);
  });
});

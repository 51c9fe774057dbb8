/**
 * The writer's posts, as the core reports them: the list from listPosts(), then every
 * 'post.changed' / 'post.deleted' event. Saves and pings progress in the core's outbox; this slice
 * only mirrors each post's latest state (never a second source of truth).
 */
import type { ApiResult, PostInput, PostView, TidingsApi } from '../../../src/app/api';
import { reportError } from './report-error';
import type { SliceCreator } from './types';

export interface PostsSlice {
  posts: PostView[];
  postsStatus: 'idle' | 'loading' | 'ready' | 'error';
  /** The post the composer edits (null: the composer writes a new post). */
  editingPostId: number | null;
  setEditingPost(id: number | null): void;
  loadPosts(): Promise<void>;
  /** A 'post.changed' event or a command's answer: replace that post, or add it if new. */
  upsertPost(post: PostView): void;
  removePost(id: number): void;
  createPost(input: PostInput): Promise<ApiResult<PostView>>;
  editPost(id: number, input: PostInput): Promise<ApiResult<PostView>>;
  deletePost(id: number): Promise<ApiResult<true>>;
}

/** Newest first, as listPosts() answers. */
const byNewest = (a: PostView, b: PostView) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id;

/** Replaces the post with the same id, or adds it; keeps newest-first order. */
export function mergePost(posts: PostView[], post: PostView): PostView[] {
  const rest = posts.filter((p) => p.id !== post.id);
  return [...rest, post].sort(byNewest);
}

export const createPostsSlice =
  (api: TidingsApi): SliceCreator<PostsSlice> =>
  (set, get) => {
    // Ids deleted while a listPosts() was in flight: its (older) answer must not bring them back.
    // Kept for the page's life: post ids are never reused (publish.db's AUTOINCREMENT).
    const deleted = new Set<number>();
    // A command's answer is a snapshot from when the core answered; a 'post.changed' event that
    // beat it over the wire (WebSocket vs HTTP) is newer and must win (as in feeds-slice).
    let eventSeq = 0;
    const lastEvent = new Map<number, number>();
    const answer = (post: PostView, since: number) => {
      if ((lastEvent.get(post.id) ?? 0) > since || deleted.has(post.id)) return;
      set((s) => ({ posts: mergePost(s.posts, post) }));
    };
    return {
      posts: [],
      postsStatus: 'idle',
      editingPostId: null,
      setEditingPost(editingPostId) {
        set({ editingPostId });
      },

      async loadPosts() {
        if (get().postsStatus !== 'ready') set({ postsStatus: 'loading' });
        try {
          const since = eventSeq;
          const listed = await api.listPosts();
          // Events that arrived while the list was on its way are newer than it: keep them.
          const current = new Map(get().posts.map((p) => [p.id, p]));
          const merged = listed
            .filter((p) => !deleted.has(p.id))
            .map((p) => ((lastEvent.get(p.id) ?? 0) > since ? (current.get(p.id) ?? p) : p));
          for (const p of current.values()) if (!merged.some((m) => m.id === p.id)) merged.push(p);
          set({ posts: merged.sort(byNewest), postsStatus: 'ready' });
        } catch (err) {
          set({ postsStatus: 'error' });
          reportError(get, err, 'Could not load your posts');
        }
      },

      upsertPost(post) {
        if (deleted.has(post.id)) return;
        lastEvent.set(post.id, ++eventSeq);
        set((s) => ({ posts: mergePost(s.posts, post) }));
      },

      removePost(id) {
        deleted.add(id);
        set((s) => ({ posts: s.posts.filter((p) => p.id !== id) }));
      },

      async createPost(input) {
        const since = eventSeq;
        const result = await api.post(input);
        if (result.ok) answer(result.value, since);
        return result;
      },

      async editPost(id, input) {
        const since = eventSeq;
        const result = await api.editPost(id, input);
        if (result.ok) answer(result.value, since);
        return result;
      },

      async deletePost(id) {
        const result = await api.deletePost(id);
        if (result.ok) get().removePost(id);
        return result;
      },
    };
  };

/**
 * A post as the API shows it: its content, and the state of its current revision's saves and
 * pings (who answered what, when the next retry is). Pure: the tasks come from publish.db.
 */
import type { PostPingState, PostTargetState, PostView } from '../app/api.ts';
import type { CloudElement } from '../feed/model.ts';
import type { PostContent, StoredPost } from './post.ts';
import type { TaskRow } from './publish-store.ts';

export function postView(
  p: StoredPost,
  tasks: readonly TaskRow[],
  now: number,
  hostedBase: string | null,
  cloud: CloudElement | null,
): PostView {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  const okOf = (t: TaskRow) => (t.state === 'done' ? true : t.attempts > 0 ? false : null);
  const retryOf = (t: TaskRow) => (t.state === 'pending' && t.attempts > 0 ? iso(t.nextAt) : null);
  const saves: PostTargetState[] = tasks
    .filter((t) => t.kind === 'save')
    .map((t) => ({
      target: t.target,
      publicUrl: t.publicUrl,
      ok: okOf(t),
      message: t.message,
      at: iso(t.lastAt),
      nextRetryAt: retryOf(t),
    }));
  const pings: PostPingState[] = tasks
    .filter((t) => t.kind === 'ping')
    .map((t) => ({
      kind: t.target as PostPingState['kind'],
      endpoint: t.endpoint === 'own' ? 'own cloud' : t.endpoint,
      url: t.url,
      ok: okOf(t),
      message: t.message,
      at: iso(t.lastAt),
      nextRetryAt: retryOf(t),
    }));
  let state: PostView['state'] = 'published';
  if (tasks.length === 0) state = 'queued';
  else if (tasks.some((t) => t.state === 'failed')) state = 'failed';
  else if (tasks.some((t) => t.state === 'pending' && t.leaseUntil > now)) state = 'publishing';
  else if (tasks.some((t) => t.state === 'pending' && t.attempts > 0)) state = 'retrying';
  else if (tasks.some((t) => t.state === 'pending')) state = 'queued';
  const cloudPing = tasks
    .filter((t) => t.kind === 'ping' && t.target === 'cloud' && t.lastAt !== null)
    .at(-1);
  return {
    ...contentView(p, hostedBase),
    id: p.id,
    guid: p.guid,
    createdAt: new Date(p.createdAt).toISOString(),
    updatedAt: new Date(p.updatedAt).toISOString(),
    state,
    saves,
    pings,
    cloudAnswer: cloudPing
      ? {
          ok: cloudPing.state === 'done',
          message: cloudPing.message ?? '',
          cloud: cloudName(cloudPing.endpoint, cloud),
        }
      : null,
  };
}

function contentView(
  c: PostContent,
  hostedBase: string | null,
): Omit<PostView, 'id' | 'guid' | 'createdAt' | 'updatedAt' | 'state' | 'saves' | 'pings' | 'cloudAnswer'> & {
  children: PostView[];
} {
  const e = c.enclosure;
  const url = e
    ? (e.url ?? (hostedBase && e.file ? `${hostedBase}/media/${e.file}` : `media/${e.file}`))
    : null;
  return {
    text: c.text,
    link: c.link,
    enclosure: e && url ? { url, type: e.type, length: e.length } : null,
    tags: c.tags,
    children: c.children.map((child) => ({
      ...contentView(child, hostedBase),
      id: 0,
      guid: '',
      createdAt: '',
      updatedAt: '',
      state: 'published',
      saves: [],
      pings: [],
      cloudAnswer: null,
    })),
  };
}

function cloudName(endpoint: string, cloud: CloudElement | null): string {
  if (endpoint === 'own') return 'Your own cloud';
  try {
    return new URL(endpoint).host;
  } catch {
    return cloud?.domain ?? 'The cloud';
  }
}

/**
 * "My posts": every post the writer made, newest first, each with its publish state: where it was
 * saved, whom it pinged and what they answered, what failed and when it is retried. Edit opens
 * the composer on the post (the feed is rebuilt and pinged again); Delete asks once, then removes.
 */
import { useEffect, useState } from 'react';
import type { PostView } from '../../../../src/app/api';
import { useApp } from '../../store/context';
import { outcomeLine, pingName, STATE_LABEL, TARGET_LABEL } from './post-state';
import './publish.css';
import { usePaintedOnMount } from '../../components/use-first-paint';

export function MyPosts() {
  usePaintedOnMount();
  const posts = useApp((s) => s.posts);
  const status = useApp((s) => s.postsStatus);
  const loadPosts = useApp((s) => s.loadPosts);
  const setComposerOpen = useApp((s) => s.setComposerOpen);
  const setPage = useApp((s) => s.setPage);

  useEffect(() => {
    void loadPosts();
  }, [loadPosts]);

  return (
    // id="river": the skip link's target is whatever shows in the river's place.
    <section
      id="river"
      tabIndex={-1}
      className="my-posts"
      aria-labelledby="my-posts-title"
      data-testid="my-posts"
    >
      <header className="my-posts-head">
        {/* The page heading (h1) says My posts already: this names the section for screen readers. */}
        <h2 id="my-posts-title" className="visually-hidden">
          My posts
        </h2>
        <button
          type="button"
          className="primary"
          onClick={() => setComposerOpen(true)}
          data-testid="my-posts-new"
        >
          New post
        </button>
        <button type="button" className="link-button" onClick={() => setPage('river')}>
          Back to the river
        </button>
      </header>
      {status === 'loading' && posts.length === 0 && <p className="my-posts-empty">Loading…</p>}
      {status === 'error' && posts.length === 0 && (
        <p className="my-posts-empty">Your posts could not be loaded.</p>
      )}
      {status === 'ready' && posts.length === 0 && (
        <p className="my-posts-empty">
          No posts yet. Press <kbd>c</kbd> to write one: it is saved, pinged, and shows up in your river.
        </p>
      )}
      <ol className="my-posts-list">
        {posts.map((post) => (
          <PostCard key={post.id} post={post} />
        ))}
      </ol>
    </section>
  );
}

function PostCard({ post }: { post: PostView }) {
  const setEditing = useApp((s) => s.setEditingPost);
  const setComposerOpen = useApp((s) => s.setComposerOpen);
  const deletePost = useApp((s) => s.deletePost);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function remove() {
    setError(null);
    try {
      const result = await deletePost(post.id);
      if (!result.ok) setError(result.error.message);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
    setConfirming(false);
  }

  return (
    <li className="post-card" data-testid="post-card" data-post-id={post.id} data-state={post.state}>
      <div className="post-card-top">
        <span className={`post-state state-${post.state}`} data-testid="post-state">
          {STATE_LABEL[post.state]}
        </span>
        <time dateTime={post.createdAt} title={post.createdAt}>
          {new Date(post.createdAt).toLocaleString()}
        </time>
        {post.updatedAt !== post.createdAt && <span className="post-edited">edited</span>}
        <span className="post-card-actions">
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setEditing(post.id);
              setComposerOpen(true);
            }}
            data-testid="post-edit"
          >
            Edit
          </button>
          {confirming ? (
            <>
              <span>Delete this post?</span>
              <button
                type="button"
                className="link-button danger"
                onClick={remove}
                data-testid="post-delete-confirm"
              >
                Delete
              </button>
              <button type="button" className="link-button" onClick={() => setConfirming(false)}>
                Keep
              </button>
            </>
          ) : (
            <button
              type="button"
              className="link-button danger"
              onClick={() => setConfirming(true)}
              data-testid="post-delete"
            >
              Delete
            </button>
          )}
        </span>
      </div>
      <p className="post-text" data-testid="post-text">
        {post.text}
      </p>
      {post.link && (
        <p className="post-meta">
          Link:{' '}
          <a href={post.link} target="_blank" rel="noreferrer noopener">
            {post.link}
          </a>
        </p>
      )}
      {post.enclosure?.type.startsWith('image/') && (
        <img
          className="post-image"
          src={post.enclosure.url}
          alt=""
          loading="lazy"
          referrerPolicy="no-referrer"
        />
      )}
      {post.enclosure && (
        <p className="post-meta">
          Enclosure:{' '}
          <a href={post.enclosure.url} target="_blank" rel="noreferrer noopener">
            {post.enclosure.url}
          </a>{' '}
          ({post.enclosure.type}, {post.enclosure.length} bytes)
        </p>
      )}
      {post.tags.length > 0 && (
        <p className="post-tags">
          {post.tags.map((t) => (
            <span key={t} className="post-tag">
              {t}
            </span>
          ))}
        </p>
      )}
      {post.children.length > 0 && <Outline items={post.children} />}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <PublishLog post={post} />
    </li>
  );
}

function Outline({ items }: { items: PostView[] }) {
  return (
    <ul className="post-outline">
      {items.map((c, i) => (
        // Sub-items have id 0 and no other identity than their place.
        // biome-ignore lint/suspicious/noArrayIndexKey: the outline's order is its identity.
        <li key={i}>
          {c.text}
          {c.children.length > 0 && <Outline items={c.children} />}
        </li>
      ))}
    </ul>
  );
}

/** Seconds tick only while a retry is planned, so "retries in 4 s" counts down. */
function useRetryClock(post: PostView): number {
  const waiting = [...post.saves, ...post.pings].some((x) => x.nextRetryAt !== null);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!waiting) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [waiting]);
  return now;
}

/** Saves and pings, each with its answer: the proof of where the post went. */
function PublishLog({ post }: { post: PostView }) {
  const now = useRetryClock(post);
  if (post.saves.length === 0 && post.pings.length === 0 && !post.cloudAnswer) return null;
  return (
    <details className="post-log" open={post.state !== 'published'} data-testid="post-log">
      <summary>
        {post.saves.filter((s) => s.ok).length}/{post.saves.length} saved ·{' '}
        {post.pings.filter((p) => p.ok).length}/{post.pings.length} pinged
        {post.cloudAnswer && (
          <span className={post.cloudAnswer.ok ? 'post-ok' : 'post-failed'} data-testid="post-cloud-answer">
            {' '}
            · {post.cloudAnswer.cloud}: {post.cloudAnswer.message}
          </span>
        )}
      </summary>
      <table>
        <tbody>
          {post.saves.map((s) => (
            <tr
              key={`save:${s.target}:${s.publicUrl ?? ''}`}
              className={s.ok === false ? 'failed' : ''}
              data-testid="post-save"
            >
              <th scope="row">{TARGET_LABEL[s.target] ?? s.target}</th>
              <td className="url">{s.publicUrl ?? ''}</td>
              <td>{outcomeLine(s, now)}</td>
            </tr>
          ))}
          {post.pings.map((p) => (
            <tr
              key={`ping:${p.kind}:${p.endpoint}:${p.url}`}
              className={p.ok === false ? 'failed' : ''}
              data-testid="post-ping"
            >
              <th scope="row">{pingName(p)}</th>
              <td className="url">{p.url}</td>
              <td>{outcomeLine(p, now)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

/**
 * The writer's entry points the app places: "My posts" in the sidebar (with the number of posts
 * still on their way), and "New post" in the toolbar. Both only flip UI state.
 */
import { useApp } from '../../store/context';
import './publish-nav.css';

export function MyPostsLink() {
  const active = useApp((s) => s.page === 'posts');
  const pending = useApp((s) => s.posts.filter((p) => p.state !== 'published').length);
  const setPage = useApp((s) => s.setPage);
  return (
    <button
      type="button"
      className={active ? 'my-posts-link active' : 'my-posts-link'}
      aria-current={active ? 'page' : undefined}
      onClick={() => setPage(active ? 'river' : 'posts')}
      data-testid="my-posts-link"
    >
      My posts
      {pending > 0 && (
        <span className="my-posts-pending" title={`${pending} not yet published everywhere`}>
          {pending}
        </span>
      )}
    </button>
  );
}

/** The toolbar button (the `c` key and the shell's "New post" go through features/keyboard). */
export function NewPostButton() {
  const setOpen = useApp((s) => s.setComposerOpen);
  return (
    <button
      type="button"
      className="panel-toggle"
      title="Write a post (c)"
      onClick={() => setOpen(true)}
      data-testid="new-post"
    >
      New post
    </button>
  );
}

/**
 * The writer's entry point the app places in the sidebar: "My posts", with the number of posts
 * still on their way. ("New post" is one of the toolbar's actions, app/ToolbarActions.tsx.)
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

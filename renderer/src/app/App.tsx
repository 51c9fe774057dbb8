/**
 * The page: feeds on the left, the river (or search results, or a welcome) on the right. The app
 * composes the features; features never import each other.
 */
import { useEffect, useState } from 'react';
import { FeedIcon } from '../components/icons';
import { ActivityButton, ActivityLog } from '../features/activity/ActivityLog';
import { AddFeedForm } from '../features/feeds/AddFeedForm';
import { FeedList } from '../features/feeds/FeedList';
import { OpmlButtons } from '../features/feeds/OpmlButtons';
import { StatusBadges } from '../features/notices/StatusBadges';
import { Toasts } from '../features/notices/Toasts';
import { Composer } from '../features/publish/Composer';
import { MyPosts } from '../features/publish/MyPosts';
import { MyPostsLink, NewPostButton } from '../features/publish/PublishNav';
import { PublishSettings } from '../features/publish/PublishSettings';
import { River } from '../features/river/River';
import { RiverHeading } from '../features/river/RiverHeading';
import { SearchBox } from '../features/search/SearchBox';
import { SearchResults } from '../features/search/SearchResults';
import { SettingsButton, SettingsPanel } from '../features/settings/SettingsPanel';
import { ShellRequests } from '../features/shell/ShellRequests';
import { useApp } from '../store/context';
import { Unauthorized } from './Unauthorized';
import { Welcome } from './Welcome';

export function App() {
  const connection = useApp((s) => s.connection);
  const noFeeds = useApp((s) => s.feedsStatus === 'ready' && s.feeds.length === 0);
  const searching = useApp((s) => s.searchResults !== null || s.searching);
  const riverKey = useApp((s) => `${s.filter.feedId ?? 'all'}:${s.filter.show}`);
  const [activityOpen, setActivityOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const page = useApp((s) => s.page);
  const setPage = useApp((s) => s.setPage);
  // Picking a feed (or All/Unread) is a wish to read: leave "My posts" for the river.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on riverKey changes only, by design.
  useEffect(() => setPage('river'), [riverKey, setPage]);

  if (connection === 'unauthorized') return <Unauthorized />;

  return (
    <div className="app">
      <aside className="sidebar">
        <div className="brand">
          <FeedIcon size={20} />
          <span>Tidings</span>
        </div>
        <AddFeedForm focus={noFeeds} />
        <MyPostsLink />
        <FeedList />
        <OpmlButtons />
      </aside>
      <main className="main">
        <header className="toolbar">
          <RiverHeading />
          <StatusBadges />
          <SearchBox />
          <NewPostButton />
          <ActivityButton open={activityOpen} onToggle={() => setActivityOpen((open) => !open)} />
          <SettingsButton open={settingsOpen} onToggle={() => setSettingsOpen((open) => !open)} />
        </header>
        {settingsOpen && (
          <SettingsPanel onClose={() => setSettingsOpen(false)}>
            <PublishSettings />
          </SettingsPanel>
        )}
        {activityOpen && <ActivityLog onClose={() => setActivityOpen(false)} />}
        {page === 'posts' ? (
          <MyPosts />
        ) : searching ? (
          <SearchResults />
        ) : noFeeds ? (
          <Welcome />
        ) : (
          <River key={riverKey} />
        )}
      </main>
      <Composer />
      <Toasts />
      <ShellRequests />
    </div>
  );
}

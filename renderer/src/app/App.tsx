/**
 * The page: feeds on the left, the river (or search results, or a welcome) on the right. The app
 * composes the features; features never import each other.
 */
import { Suspense, useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { FeedIcon } from '../components/icons';
import { lazyView, preloadLazyViews } from '../components/lazy-view';
import { useSettingsLeave } from '../components/SettingsLeave';
import { useFirstPaintDone } from '../components/use-first-paint';
import { AddFeedForm } from '../features/feeds/AddFeedForm';
import { FeedList } from '../features/feeds/FeedList';
import { OpmlButtons } from '../features/feeds/OpmlButtons';
import { KeyboardShortcuts } from '../features/keyboard/KeyboardShortcuts';
import { StatusBadges } from '../features/notices/StatusBadges';
import { Toasts } from '../features/notices/Toasts';
import { UndoBar } from '../features/notices/UndoBar';
import { PlayerBar } from '../features/player/PlayerBar';
import { Composer } from '../features/publish/Composer';
import { MyPostsLink } from '../features/publish/PublishNav';
import { River } from '../features/river/River';
import { RiverHeading } from '../features/river/RiverHeading';
import { SavedSearches } from '../features/search/SavedSearches';
import { SearchBox } from '../features/search/SearchBox';
import { ShellRequests } from '../features/shell/ShellRequests';
import { useApp } from '../store/context';
import { SidebarToggle } from './SidebarToggle';
import { ToolbarActions } from './ToolbarActions';
import { Unauthorized } from './Unauthorized';
import { useSidebar } from './use-sidebar';
import { Welcome } from './Welcome';

// Not needed for the river's first paint: chunks of their own, fetched once it is on screen.
const ActivityLog = lazyView('The activity log', () =>
  import('../features/activity/ActivityLog').then((m) => m.ActivityLog),
);
const MyPosts = lazyView('My posts', () => import('../features/publish/MyPosts').then((m) => m.MyPosts));
const PublishSettings = lazyView('Your feed settings', () =>
  import('../features/publish/PublishSettings').then((m) => m.PublishSettings),
);
const SearchResults = lazyView('Search results', () =>
  import('../features/search/SearchResults').then((m) => m.SearchResults),
);
const SettingsPanel = lazyView('Settings', () =>
  import('../features/settings/SettingsPanel').then((m) => m.SettingsPanel),
);

export function App() {
  const connection = useApp((s) => s.connection);
  const noFeeds = useApp((s) => s.feedsStatus === 'ready' && s.feeds.length === 0);
  const searching = useApp((s) => s.searchResults !== null || s.searching);
  const riverKey = useApp((s) => `${s.filter.feedId ?? 'all'}:${s.filter.folderId ?? ''}:${s.filter.show}`);
  const [activityOpen, setActivityOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const page = useApp((s) => s.page);
  const setPage = useApp((s) => s.setPage);
  const setComposerOpen = useApp((s) => s.setComposerOpen);
  // Picking a feed (or All/Unread) is a wish to read: leave "My posts" for the river.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on riverKey changes only, by design.
  useEffect(() => setPage('river'), [riverKey, setPage]);
  // Leaving Settings with edits not saved asks first (components/SettingsLeave.tsx).
  const { requestLeave, question: leaveQuestion } = useSettingsLeave();
  const closeSettings = () => requestLeave(() => setSettingsOpen(false));
  // Picking a feed or My posts leaves Settings too.
  // biome-ignore lint/correctness/useExhaustiveDependencies: riverKey and page are the triggers.
  useEffect(() => requestLeave(() => setSettingsOpen(false)), [riverKey, page, requestLeave]);
  const firstPaintDone = useFirstPaintDone();
  useEffect(() => {
    if (firstPaintDone) preloadLazyViews();
  }, [firstPaintDone]);
  const sidebar = useSidebar();
  const { narrow, setOpen: setSidebarOpen } = sidebar;

  // On a narrow window the sidebar is a drawer: picking a feed (a new river) or My posts closes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: riverKey and page are the triggers, not values used.
  useEffect(() => {
    if (narrow) setSidebarOpen(false);
  }, [riverKey, page, narrow, setSidebarOpen]);

  // The empty state's "Add a feed": the sidebar's address field (opening the drawer when narrow).
  const focusAddFeed = () => {
    flushSync(() => setSidebarOpen(true));
    document.querySelector<HTMLElement>('#sidebar [data-testid="add-feed-input"]')?.focus();
  };

  const toggleSidebar = () => {
    const opening = !sidebar.open;
    setSidebarOpen(opening);
    // A drawer opened by the keyboard takes focus: the feed list's one Tab stop.
    if (opening && narrow)
      requestAnimationFrame(() =>
        document.querySelector<HTMLElement>('#sidebar [role="tree"] [tabindex="0"]')?.focus(),
      );
  };

  const closeDrawer = () => {
    if (narrow) setSidebarOpen(false);
  };

  if (connection === 'unauthorized') return <Unauthorized />;
  // An open drawer is modal: the page behind it is inert (no Tab stops, no clicks, hidden from
  // screen readers) until it closes.
  const drawerOpen = narrow && sidebar.open;

  return (
    <div className={`app${sidebar.open ? '' : ' sidebar-closed'}${narrow ? ' narrow' : ''}`}>
      <a className="skip-link" href="#river" inert={drawerOpen}>
        Skip to the river
      </a>
      {narrow && sidebar.open && (
        // The drawer's backdrop: a click beside the drawer closes it (Escape does too, below).
        // biome-ignore lint/a11y/noStaticElementInteractions: a pointer convenience; the toggle button and Escape are the accessible ways.
        // biome-ignore lint/a11y/useKeyWithClickEvents: as above.
        <div className="sidebar-backdrop" onClick={() => setSidebarOpen(false)} />
      )}
      <aside
        id="sidebar"
        className="sidebar"
        aria-label="Feeds and folders"
        onKeyDown={(e) => {
          if (!narrow || e.key !== 'Escape' || e.defaultPrevented) return;
          // Closing the drawer by key puts focus back on the button that opened it (once the page
          // behind is no longer inert: an inert button cannot take focus).
          flushSync(() => setSidebarOpen(false));
          document.querySelector<HTMLElement>('[data-testid="sidebar-toggle"]')?.focus();
        }}
      >
        <div className="brand">
          <FeedIcon size={20} />
          <span>Tidings</span>
        </div>
        <AddFeedForm focus={noFeeds} />
        <MyPostsLink />
        <FeedList
          onOpen={() => {
            closeDrawer();
            // Opening a row is a wish to read, even the row already selected.
            closeSettings();
          }}
        />
        <SavedSearches onRun={closeDrawer} />
        <OpmlButtons />
      </aside>
      <main className="main" inert={drawerOpen}>
        <header className="toolbar">
          <SidebarToggle open={sidebar.open} onToggle={toggleSidebar} />
          <RiverHeading />
          <StatusBadges />
          <SearchBox />
          <ToolbarActions
            actions={[
              {
                label: 'New post',
                title: 'Write a post (c)',
                run: () => setComposerOpen(true),
                testId: 'new-post',
                rank: 2,
              },
              {
                label: 'Activity',
                title: 'Activity: every fetch and every rssCloud call',
                pressed: activityOpen,
                run: () => setActivityOpen((open) => !open),
                testId: 'activity-toggle',
                rank: 1,
              },
              {
                label: 'Settings',
                pressed: settingsOpen,
                run: () => (settingsOpen ? closeSettings() : setSettingsOpen(true)),
                testId: 'settings-toggle',
                rank: 3,
              },
            ]}
          />
        </header>
        <Suspense fallback={null}>
          {activityOpen && <ActivityLog onClose={() => setActivityOpen(false)} />}
        </Suspense>
        <Suspense fallback={<p className="river-note">Loading…</p>}>
          {/* Settings is a page of its own, in the river's place (not a panel pushed above it). */}
          {settingsOpen ? (
            <SettingsPanel onClose={closeSettings}>
              <PublishSettings />
            </SettingsPanel>
          ) : page === 'posts' ? (
            <MyPosts />
          ) : searching ? (
            <SearchResults />
          ) : noFeeds ? (
            <Welcome onAddFeed={focusAddFeed} />
          ) : (
            <River key={riverKey} />
          )}
        </Suspense>
        <UndoBar />
        <PlayerBar />
      </main>
      <Composer />
      <Toasts />
      <KeyboardShortcuts />
      <ShellRequests />
      {leaveQuestion}
    </div>
  );
}

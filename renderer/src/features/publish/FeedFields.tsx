/** Settings > Your feed > The feed: what the channel says, the limit, the size, the blogroll. */
import type { PublishSettings as Settings } from '../../../../src/app/api';
import { Checkbox } from '../../components/Checkbox';

export function FeedFields({ draft, set }: { draft: Settings; set(patch: Partial<Settings>): void }) {
  return (
    <fieldset>
      <legend>The feed</legend>
      <label>
        Title
        <input
          type="text"
          value={draft.title}
          onChange={(e) => set({ title: e.target.value })}
          data-testid="publish-title"
        />
      </label>
      <label>
        Description
        <input type="text" value={draft.description} onChange={(e) => set({ description: e.target.value })} />
      </label>
      <label>
        Link (your site; the hosted home page when empty)
        <input
          type="url"
          value={draft.link ?? ''}
          onChange={(e) => set({ link: e.target.value.trim() === '' ? null : e.target.value })}
        />
      </label>
      <label>
        Language
        <input
          type="text"
          value={draft.language}
          size={8}
          onChange={(e) => set({ language: e.target.value })}
        />
      </label>
      <label>
        At most
        <input
          type="number"
          min={1}
          max={100000}
          value={draft.charLimit}
          onChange={(e) => set({ charLimit: Number(e.target.value) })}
          data-testid="publish-char-limit"
        />
        characters per post
      </label>
      <label>
        The feed holds the newest
        <input
          type="number"
          min={1}
          max={1000}
          value={draft.feedSize}
          onChange={(e) => set({ feedSize: Number(e.target.value) })}
        />
        posts (all are kept here)
      </label>
      <Checkbox
        className="settings-check"
        checked={draft.shareBlogroll}
        onChange={(shareBlogroll) => set({ shareBlogroll })}
      >
        Publish my subscriptions as an OPML blogroll
      </Checkbox>
    </fieldset>
  );
}

/**
 * Settings > Your feed > WebSub hubs: the hubs the feed names (atom:link rel="hub", JSON Feed
 * `hubs`) and tells of each post. 'own' in the list is this app's own hub (its notification
 * service speaks WebSub too); other entries are hub addresses. `ownHub`: the own hub's address
 * now (null while no public address), shown so the writer sees what readers will be given.
 */
import type { PublishSettings as Settings } from '../../../../src/app/api';
import { Checkbox } from '../../components/Checkbox';
import { UrlList } from '../../components/UrlList';

export function HubFields({
  draft,
  set,
  ownHub,
}: {
  draft: Settings;
  set(patch: Partial<Settings>): void;
  ownHub: string | null;
}) {
  const own = draft.hubs.includes('own');
  const others = draft.hubs.filter((h) => h !== 'own');
  const withOthers = (next: string[]) => set({ hubs: [...(own ? ['own'] : []), ...next] });
  return (
    <fieldset data-testid="publish-hubs">
      <legend>WebSub hubs</legend>
      <p className="settings-note">
        Readers whose apps use WebSub (instead of rssCloud) learn of each post at once through a hub.
      </p>
      <Checkbox
        className="settings-check"
        checked={own}
        onChange={(checked) => set({ hubs: checked ? ['own', ...others] : others })}
        testId="publish-hub-own"
        hint={
          <span data-testid="publish-own-hub-note">
            {ownHub
              ? `At ${ownHub}.`
              : 'No public address yet: turn on the tunnel or give a public address (Real time above).'}
          </span>
        }
      >
        This app's own hub
      </Checkbox>
      <UrlList
        items={others}
        urlOf={(hub) => hub}
        withUrl={(_, url) => url}
        onChange={withOthers}
        newItem={() => ''}
        itemName={(i) => `Hub ${i + 1}`}
        addLabel="+ Another hub"
        placeholder="https://hub.example.org/"
        urlTestId="publish-hub-url"
        addTestId="publish-hub-add"
      />
    </fieldset>
  );
}

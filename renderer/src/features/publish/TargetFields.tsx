/** Settings > Your feed > Where it is saved: built-in hosting (optionally private), a folder, saveRss. */
import type { PublishSettings as Settings } from '../../../../src/app/api';

export function TargetFields({ draft, set }: { draft: Settings; set(patch: Partial<Settings>): void }) {
  return (
    <fieldset>
      <legend>Where it is saved</legend>
      <label className="settings-check">
        <input
          type="checkbox"
          checked={draft.hosting.enabled}
          onChange={(e) => set({ hosting: { ...draft.hosting, enabled: e.target.checked } })}
          data-testid="publish-hosting"
        />
        Host it here (served through the tunnel or your public address)
      </label>
      <label>
        Who may read it
        <select
          value={draft.hosting.private?.scheme ?? 'public'}
          disabled={!draft.hosting.enabled}
          onChange={(e) => {
            const v = e.target.value;
            set({
              hosting: {
                ...draft.hosting,
                private:
                  v === 'public'
                    ? null
                    : {
                        username: '',
                        password: '',
                        ...draft.hosting.private,
                        scheme: v as 'basic' | 'wsse',
                      },
              },
            });
          }}
        >
          <option value="public">Everyone</option>
          <option value="basic">With a login (HTTP Basic)</option>
          <option value="wsse">With a login (WSSE)</option>
        </select>
      </label>
      {draft.hosting.private && (
        <div className="settings-pair">
          <input
            type="text"
            aria-label="Readers' user name"
            placeholder="user name"
            value={draft.hosting.private.username}
            onChange={(e) =>
              set({
                hosting: {
                  ...draft.hosting,
                  private: { ...draft.hosting.private!, username: e.target.value },
                },
              })
            }
          />
          <input
            type="password"
            aria-label="Readers' password"
            placeholder="password"
            value={draft.hosting.private.password}
            onChange={(e) =>
              set({
                hosting: {
                  ...draft.hosting,
                  private: { ...draft.hosting.private!, password: e.target.value },
                },
              })
            }
          />
        </div>
      )}
      <label className="settings-check">
        <input
          type="checkbox"
          checked={draft.folder?.enabled ?? false}
          onChange={(e) =>
            set({ folder: { path: '', publicUrl: '', ...draft.folder, enabled: e.target.checked } })
          }
          data-testid="publish-folder"
        />
        Write it to a folder (a static site, a synced folder)
      </label>
      {draft.folder?.enabled && (
        <div className="settings-pair">
          <input
            type="text"
            aria-label="Folder path"
            placeholder="/path/to/site"
            value={draft.folder.path}
            onChange={(e) => set({ folder: { ...draft.folder!, path: e.target.value } })}
          />
          <input
            type="url"
            aria-label="The folder's public URL"
            placeholder="https://example.org/feed/"
            value={draft.folder.publicUrl}
            onChange={(e) => set({ folder: { ...draft.folder!, publicUrl: e.target.value } })}
          />
        </div>
      )}
      <label className="settings-check">
        <input
          type="checkbox"
          checked={draft.saveRss?.enabled ?? false}
          onChange={(e) =>
            set({
              saveRss: {
                cloudUrl: '',
                username: '',
                password: '',
                ...draft.saveRss,
                enabled: e.target.checked,
              },
            })
          }
          data-testid="publish-saverss"
        />
        Save it on a remote cloud (rssCloud.saveRss, e.g. your own `tidings cloud`)
      </label>
      {draft.saveRss?.enabled && (
        <div className="settings-pair">
          <input
            type="url"
            aria-label="The cloud's address"
            placeholder="https://cloud.example.org/RPC2"
            value={draft.saveRss.cloudUrl}
            onChange={(e) => set({ saveRss: { ...draft.saveRss!, cloudUrl: e.target.value } })}
            data-testid="publish-saverss-url"
          />
          <input
            type="text"
            aria-label="User name on the cloud"
            placeholder="user name"
            value={draft.saveRss.username}
            onChange={(e) => set({ saveRss: { ...draft.saveRss!, username: e.target.value } })}
          />
          <input
            type="password"
            aria-label="Password on the cloud"
            placeholder="password"
            value={draft.saveRss.password}
            onChange={(e) => set({ saveRss: { ...draft.saveRss!, password: e.target.value } })}
          />
        </div>
      )}
    </fieldset>
  );
}

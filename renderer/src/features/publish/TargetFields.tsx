/** Settings > Your feed > Where it is saved: built-in hosting (optionally private), a folder, saveRss. */
import type { PublishSettings as Settings } from '../../../../src/app/api';
import { Checkbox } from '../../components/Checkbox';

export function TargetFields({ draft, set }: { draft: Settings; set(patch: Partial<Settings>): void }) {
  const login = draft.hosting.private;
  const setLogin = (patch: Partial<NonNullable<Settings['hosting']['private']>>) =>
    login && set({ hosting: { ...draft.hosting, private: { ...login, ...patch } } });
  const folder = draft.folder;
  const saveRss = draft.saveRss;
  return (
    <fieldset>
      <legend>Where it is saved</legend>
      <Checkbox
        className="settings-check"
        checked={draft.hosting.enabled}
        onChange={(enabled) => set({ hosting: { ...draft.hosting, enabled } })}
        testId="publish-hosting"
      >
        Host it here (served through the tunnel or your public address)
      </Checkbox>
      <label>
        Who may read it
        <select
          value={login?.scheme ?? 'public'}
          disabled={!draft.hosting.enabled}
          onChange={(e) => {
            const v = e.target.value;
            set({
              hosting: {
                ...draft.hosting,
                private:
                  v === 'public'
                    ? null
                    : { username: '', password: '', ...login, scheme: v as 'basic' | 'wsse' },
              },
            });
          }}
        >
          <option value="public">Everyone</option>
          <option value="basic">With a login (HTTP Basic)</option>
          <option value="wsse">With a login (WSSE)</option>
        </select>
      </label>
      {login && (
        <div className="settings-pair">
          <Field
            type="text"
            label="Readers' user name"
            placeholder="user name"
            value={login.username}
            onChange={(username) => setLogin({ username })}
          />
          <Field
            type="password"
            label="Readers' password"
            placeholder="password"
            value={login.password}
            onChange={(password) => setLogin({ password })}
          />
        </div>
      )}
      <Checkbox
        className="settings-check"
        checked={folder?.enabled ?? false}
        onChange={(enabled) => set({ folder: { path: '', publicUrl: '', ...folder, enabled } })}
        testId="publish-folder"
      >
        Write it to a folder (a static site, a synced folder)
      </Checkbox>
      {folder?.enabled && (
        <div className="settings-pair">
          <Field
            type="text"
            label="Folder path"
            placeholder="/path/to/site"
            value={folder.path}
            onChange={(path) => set({ folder: { ...folder, path } })}
          />
          <Field
            type="url"
            label="The folder's public URL"
            placeholder="https://example.org/feed/"
            value={folder.publicUrl}
            onChange={(publicUrl) => set({ folder: { ...folder, publicUrl } })}
          />
        </div>
      )}
      <Checkbox
        className="settings-check"
        checked={saveRss?.enabled ?? false}
        onChange={(enabled) =>
          set({ saveRss: { cloudUrl: '', username: '', password: '', ...saveRss, enabled } })
        }
        testId="publish-saverss"
      >
        Save it on a remote cloud (rssCloud.saveRss, e.g. your own `tidings cloud`)
      </Checkbox>
      {saveRss?.enabled && (
        <div className="settings-pair">
          <Field
            type="url"
            label="The cloud's address"
            placeholder="https://cloud.example.org/RPC2"
            value={saveRss.cloudUrl}
            onChange={(cloudUrl) => set({ saveRss: { ...saveRss, cloudUrl } })}
            testId="publish-saverss-url"
          />
          <Field
            type="text"
            label="User name on the cloud"
            placeholder="user name"
            value={saveRss.username}
            onChange={(username) => set({ saveRss: { ...saveRss, username } })}
          />
          <Field
            type="password"
            label="Password on the cloud"
            placeholder="password"
            value={saveRss.password}
            onChange={(password) => set({ saveRss: { ...saveRss, password } })}
          />
        </div>
      )}
    </fieldset>
  );
}

/** One of a target's text inputs: named for screen readers, the placeholder shows the form. */
function Field(props: {
  type: 'text' | 'url' | 'password';
  label: string;
  placeholder: string;
  value: string;
  onChange(value: string): void;
  testId?: string;
}) {
  return (
    <input
      type={props.type}
      aria-label={props.label}
      placeholder={props.placeholder}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      data-testid={props.testId}
    />
  );
}

import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { getClient } from '../../api/client';
import { useApp } from '../../store/context';

let nextRequest = 1;
const newRequestId = () => `add-${Date.now().toString(36)}-${nextRequest++}`;

/**
 * "Add a feed": a feed URL or a site URL (the core finds the feed). While the core looks, the
 * form says what it is trying and offers Cancel; a feed already followed is selected, and so is a
 * new one. Errors are the core's sentence, shown as they come (the core names the URL once).
 * A private feed takes a login (HTTP Basic or WSSE), kept by the core and never shown again.
 */
export function AddFeedForm({ focus }: { focus: boolean }) {
  const addFeed = useApp((s) => s.addFeed);
  const cancelSubscribe = useApp((s) => s.cancelSubscribe);
  const pushNotice = useApp((s) => s.pushNotice);
  const [url, setUrl] = useState('');
  const [pending, setPending] = useState<string | null>(null);
  const [progress, setProgress] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [needsLogin, setNeedsLogin] = useState(false);
  const [scheme, setScheme] = useState<'basic' | 'wsse'>('basic');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const id = useId();

  useEffect(() => {
    if (focus) input.current?.focus();
  }, [focus]);

  // What discovery is trying now, for this form's request only.
  useEffect(() => {
    if (!pending) return;
    return getClient().on('subscribe.progress', (event) => {
      if (event.requestId === pending) setProgress(event.message);
    });
  }, [pending]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const value = url.trim();
    if (!value || pending) return;
    const requestId = newRequestId();
    setPending(requestId);
    setProgress(null);
    setError(null);
    setNote(null);
    const credentials = needsLogin && username ? { scheme, username, password } : null;
    const result = await addFeed(value, credentials, { requestId });
    setPending(null);
    setProgress(null);
    if (result.ok) {
      setUrl('');
      setUsername('');
      setPassword('');
      setNeedsLogin(false);
      input.current?.focus();
    } else if (result.error.code === 'already_subscribed') {
      // Not a failure: the feed is selected, and the form is ready for the next one.
      setUrl('');
      pushNotice({ level: 'info', message: result.error.message });
    } else if (result.error.code.endsWith('cancelled')) {
      // The person stopped it: say so quietly, keep the address to edit.
      setNote(result.error.message);
      input.current?.focus();
    } else {
      setError(result.error.message);
      input.current?.focus();
    }
  }

  return (
    <form className="add-feed" onSubmit={submit} noValidate aria-busy={pending !== null}>
      {/* Named by its placeholder's words too; the label is for screen readers (a line saved for feeds). */}
      <label htmlFor={id} className="visually-hidden">
        Add a feed
      </label>
      <div className="add-feed-row">
        <input
          ref={input}
          id={id}
          type="text"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="Feed or site to add"
          value={url}
          readOnly={pending !== null}
          onChange={(e) => {
            setUrl(e.target.value);
            if (error) setError(null);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          data-testid="add-feed-input"
        />
        {pending ? (
          <button type="button" onClick={() => void cancelSubscribe(pending)} data-testid="add-feed-cancel">
            Cancel
          </button>
        ) : (
          <button type="submit" className="primary" disabled={!url.trim()} data-testid="add-feed-submit">
            Add
          </button>
        )}
      </div>
      {pending && (
        <p className="add-feed-progress" role="status" data-testid="add-feed-progress">
          <span className="spinner" aria-hidden="true" />
          {progress ?? 'Looking for the feed…'}
        </p>
      )}
      <details
        className="add-feed-login"
        open={needsLogin}
        onToggle={(e) => setNeedsLogin(e.currentTarget.open)}
        data-testid="add-feed-login"
      >
        <summary>Needs a login</summary>
        <div className="add-feed-login-fields">
          <label>
            Scheme
            <select value={scheme} onChange={(e) => setScheme(e.target.value as 'basic' | 'wsse')}>
              <option value="basic">HTTP Basic</option>
              <option value="wsse">WSSE</option>
            </select>
          </label>
          <label>
            User name
            <input
              type="text"
              autoComplete="off"
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              data-testid="add-feed-username"
            />
          </label>
          <label>
            Password
            <input
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              data-testid="add-feed-password"
            />
          </label>
        </div>
      </details>
      {note && (
        <p className="add-feed-progress" role="status" data-testid="add-feed-note">
          {note}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="form-error" role="alert" data-testid="add-feed-error">
          {error}
        </p>
      )}
    </form>
  );
}

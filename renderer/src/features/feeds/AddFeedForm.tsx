import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useApp } from '../../store/context';

/**
 * "Add a feed": a feed URL or a site URL (the core finds the feed); the core's error, verbatim.
 * A private feed takes a login (HTTP Basic or WSSE), kept by the core and never shown again.
 */
export function AddFeedForm({ focus }: { focus: boolean }) {
  const addFeed = useApp((s) => s.addFeed);
  const [url, setUrl] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [needsLogin, setNeedsLogin] = useState(false);
  const [scheme, setScheme] = useState<'basic' | 'wsse'>('basic');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const id = useId();

  useEffect(() => {
    if (focus) input.current?.focus();
  }, [focus]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const value = url.trim();
    if (!value || pending) return;
    setPending(true);
    setError(null);
    const credentials = needsLogin && username ? { scheme, username, password } : null;
    const result = await addFeed(value, credentials);
    setPending(false);
    if (result.ok) {
      setUrl('');
      setUsername('');
      setPassword('');
      setNeedsLogin(false);
    } else setError(result.error.message);
    input.current?.focus();
  }

  return (
    <form className="add-feed" onSubmit={submit} noValidate>
      <label htmlFor={id}>Add a feed</label>
      <div className="add-feed-row">
        <input
          ref={input}
          id={id}
          type="text"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="Feed or site address"
          value={url}
          onChange={(e) => {
            setUrl(e.target.value);
            if (error) setError(null);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          data-testid="add-feed-input"
        />
        <button
          type="submit"
          className="primary"
          disabled={pending || !url.trim()}
          data-testid="add-feed-submit"
        >
          {pending ? 'Adding…' : 'Add'}
        </button>
      </div>
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
      {error && (
        <p id={`${id}-error`} className="form-error" role="alert" data-testid="add-feed-error">
          {error}
        </p>
      )}
    </form>
  );
}

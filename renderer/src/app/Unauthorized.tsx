/** Browser mode without a valid token: nothing works, so say how to get in and nothing else. */
export function Unauthorized() {
  return (
    <div className="unauthorized" data-testid="unauthorized">
      <div className="welcome-card">
        <h1>Tidings</h1>
        <p>
          This page needs the link printed by <code>tidings serve</code> (it carries the access token).
        </p>
        <p className="welcome-more">
          Open the <code>http://127.0.0.1:…/?token=…</code> link from the terminal where Tidings runs.
        </p>
      </div>
    </div>
  );
}

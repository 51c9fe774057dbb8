/**
 * The subscriber's requests to a hub (WebSub §5.1): a form POST of hub.mode (subscribe or
 * unsubscribe), hub.callback, hub.topic, hub.lease_seconds and, over https only, hub.secret.
 * A hub answers 202 Accepted and verifies later (out of band); some verify before answering and
 * say 204. Never throws: every outcome is { ok, message } with the hub's own words kept.
 */
import type { HttpClient } from '../../net/http-client-types.ts';

export interface HubRequest {
  hub: string;
  mode: 'subscribe' | 'unsubscribe';
  topic: string;
  callback: string;
  leaseSeconds?: number | null;
  /** Only sent over an https callback (the spec forbids it over http). */
  secret?: string | null;
}

export interface HubAnswer {
  ok: boolean;
  status: number | null;
  message: string;
  latencyMs: number;
}

const ANSWER_CAP_BYTES = 16 * 1024;

export async function askHub(
  http: HttpClient,
  req: HubRequest,
  opts: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<HubAnswer> {
  const form = new URLSearchParams();
  form.append('hub.mode', req.mode);
  form.append('hub.topic', req.topic);
  form.append('hub.callback', req.callback);
  if (req.mode === 'subscribe' && req.leaseSeconds)
    form.append('hub.lease_seconds', String(req.leaseSeconds));
  if (req.mode === 'subscribe' && req.secret && req.callback.startsWith('https:')) {
    form.append('hub.secret', req.secret);
  }
  const started = performance.now();
  const res = await http.request({
    method: 'POST',
    url: req.hub,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    timeoutMs: opts.timeoutMs ?? 30_000,
    maxBodyBytes: ANSWER_CAP_BYTES,
    signal: opts.signal,
  });
  const latencyMs = Math.round((performance.now() - started) * 10) / 10;
  if (!res.ok) return { ok: false, status: null, message: res.error.message, latencyMs };
  const { status } = res.value;
  const text = clip(new TextDecoder().decode(res.value.body).trim());
  if (status >= 200 && status < 300) {
    const message =
      status === 202
        ? `The hub accepted the ${req.mode} request (202); it verifies next.`
        : `The hub answered ${status}${text ? `: ${text}` : '.'}`;
    return { ok: true, status, message, latencyMs };
  }
  return {
    ok: false,
    status,
    message: `The hub answered HTTP ${status}${text ? `: ${text}` : '.'}`,
    latencyMs,
  };
}

function clip(s: string): string {
  const one = s.replace(/\s+/g, ' ');
  return one.length > 160 ? `${one.slice(0, 160)}…` : one;
}

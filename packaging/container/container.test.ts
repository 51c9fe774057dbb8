/**
 * The container image, built here from Debian's packages (build-local.sh: the Containerfile on a
 * Node 24 base made with mmdebstrap) and run with podman: it runs as an unprivileged user, its
 * HEALTHCHECK passes, a subscriber registered with it is notified of a ping and /metrics counts
 * it, SIGTERM stops it cleanly, and its data outlives it in its volume. Where podman cannot run
 * (not root, the tools missing), the tests are skipped and say why.
 */
import { spawnSync } from 'node:child_process';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import rootPkg from '../../package.json' with { type: 'json' };
import { Peer } from '../../src/testing/cloud-kit.ts';
import { freePort } from '../../src/testing/free-port.ts';
import { type LoggedCloud, registerThenPing, startLoggedCloud } from '../../src/testing/logged-cloud.ts';

const HERE = import.meta.dirname;
const cache =
  process.env.TIDINGS_IMAGE_CACHE ??
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'tidings-cloud');
/** The settings build-local.sh writes for podman here (it says why). */
const podmanEnv = {
  ...process.env,
  TIDINGS_IMAGE_CACHE: cache,
  CONTAINERS_CONF: join(cache, 'containers.conf'),
};
const tag = `localhost/tidings-cloud:test-${process.pid}`;
const suffix = `${process.pid}-${Date.now().toString(36)}`;
const volume = `tidings-cloud-test-${suffix}`;

/** Why the image cannot be built and run here, or null. */
function cannotRun(): string | null {
  if (process.getuid?.() !== 0) return 'not root (podman storage and mmdebstrap here need root)';
  const missing = ['podman', 'buildah', 'runc', 'mmdebstrap'].filter(
    (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0,
  );
  if (missing.length > 0)
    return `${missing.join(', ')} not installed (apt-get install -y podman buildah runc mmdebstrap)`;
  return null;
}

function podman(...args: string[]) {
  return spawnSync('podman', args, { env: podmanEnv, encoding: 'utf8' });
}

const why = cannotRun();
if (why) console.log(`container tests skipped: ${why}`);

describe.skipIf(why !== null)('the container image', () => {
  let peer: Peer;
  let built: { status: number | null; output: string; seconds: number };
  let running: { name: string; cloud: LoggedCloud } | null = null;

  /** `podman run` in the foreground (its stdout is the cloud's log); host networking, as here. */
  async function run(name: string, env: Record<string, string>): Promise<LoggedCloud> {
    const args = ['run', '--rm', '--name', name, '--runtime', 'runc', '--network', 'host'];
    // Health checks are run by hand below: podman's timers need systemd, not PID 1 here.
    args.push('--health-interval', 'disable', '-v', `${volume}:/var/lib/tidings-cloud`);
    for (const [k, v] of Object.entries(env)) args.push('-e', `${k}=${v}`);
    const cloud = await startLoggedCloud([...args, tag], { command: 'podman', env: podmanEnv });
    running = { name, cloud };
    return cloud;
  }

  async function stop(): Promise<number | null> {
    if (!running) return null;
    const { name, cloud } = running;
    running = null;
    podman('stop', '--time', '20', name); // SIGTERM, then SIGKILL after 20 s
    return cloud.exited;
  }

  beforeAll(async () => {
    peer = await new Peer().start();
    const started = performance.now();
    const r = spawnSync(join(HERE, 'build-local.sh'), [tag], { env: podmanEnv, encoding: 'utf8' });
    built = { status: r.status, output: r.stdout + r.stderr, seconds: (performance.now() - started) / 1000 };
    console.log(`image built in ${built.seconds.toFixed(1)} s:\n${built.output}`);
  }, 900_000);

  afterAll(async () => {
    await stop();
    await peer?.close();
    podman('volume', 'rm', '-f', volume);
    podman('rmi', '-f', tag);
  }, 60_000);

  it('builds from the Containerfile on a Debian base, as an unprivileged user with a volume and a HEALTHCHECK', () => {
    expect(built.status, built.output).toBe(0);
    const inspected = podman('inspect', '--type', 'image', '--format', '{{json .Config}}', tag);
    expect(inspected.status, inspected.stderr).toBe(0);
    const config = JSON.parse(inspected.stdout) as {
      User: string;
      Volumes: Record<string, unknown>;
      Env: string[];
    };
    expect(config.User).toBe('10001:10001');
    expect(Object.keys(config.Volumes)).toEqual(['/var/lib/tidings-cloud']);
    expect(config.Env).toContain('TIDINGS_CLOUD_DATA=/var/lib/tidings-cloud');
    const health = JSON.parse(
      podman('inspect', '--type', 'image', '--format', '{{json .HealthCheck}}', tag).stdout,
    ) as {
      Test: string[];
    };
    expect(health.Test).toEqual(['CMD', 'tidings-cloud', 'healthcheck']);
  });

  it('answers a ping with a delivered notification, counts it in /metrics, and stops cleanly on SIGTERM', async () => {
    expect(built.status, built.output).toBe(0);
    const port = await freePort();
    const name = `tidings-cloud-test-${suffix}`;
    const cloud = await run(name, {
      TIDINGS_CLOUD_PORT: String(port),
      TIDINGS_CLOUD_HOST: '127.0.0.1',
      TIDINGS_CLOUD_ALLOW_LOOPBACK: 'true',
      TIDINGS_CLOUD_LOG_LEVEL: 'debug',
    });
    expect(cloud.started).toMatchObject({
      store: 'sqlite',
      location: 'data: /var/lib/tidings-cloud',
      version: rootPkg.version,
    });
    expect(podman('exec', name, 'id', '-u').stdout.trim()).toBe('10001');
    expect(podman('healthcheck', 'run', name).status).toBe(0);

    const ping = await registerThenPing(cloud, peer);
    expect(await ping.json()).toMatchObject({ success: true });
    const notified = peer.hits('POST', '/cb');
    expect(notified).toHaveLength(2); // the handler test, then the notification
    expect(notified[1]!.form.url).toBe(`${peer.url}/rss.xml`);
    const metrics = await (await fetch(`${cloud.url}/metrics`)).text();
    expect(metrics).toContain('tidings_cloud_notifications_total{protocol="http-post",outcome="ok"} 1');
    expect(metrics).toContain('tidings_cloud_pings_total{protocol="rest",outcome="changed"} 1');

    const stopping = performance.now();
    expect(await stop()).toBe(0);
    expect(performance.now() - stopping).toBeLessThan(15_000);
    expect(cloud.lines.map((l) => l.msg).slice(-3)).toEqual([
      'SIGTERM received',
      'Stopping the cloud (closing connections and the database)...',
      'Cloud stopped.',
    ]);

    // The volume kept the subscription for the next container.
    const again = await run(`${name}-2`, {
      TIDINGS_CLOUD_PORT: String(port),
      TIDINGS_CLOUD_HOST: '127.0.0.1',
    });
    const subs = (await (await fetch(`${again.url}/subscriptions.json`)).json()) as {
      feeds: Record<string, { subscriptions: unknown[] }>;
    };
    expect(subs.feeds[`${peer.url}/rss.xml`]?.subscriptions).toHaveLength(1);
    expect(await stop()).toBe(0);
  }, 120_000);
});

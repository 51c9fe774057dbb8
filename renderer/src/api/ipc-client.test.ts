import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error';
import { createIpcClient, fromIpcError } from './ipc-client';
import type { TidingsBridge } from './types';

describe('fromIpcError', () => {
  const cases: { input: unknown; code: string; message: string }[] = [
    {
      input: new Error("Error invoking remote method 'tidings:invoke': Error: No feed found at x"),
      code: 'ipc',
      message: 'No feed found at x',
    },
    {
      input: new Error(
        "Error invoking remote method 'tidings:invoke': TidingsError: [feed.gone] The feed is gone",
      ),
      code: 'feed.gone',
      message: 'The feed is gone',
    },
    { input: new ApiError('x.y', 'kept'), code: 'x.y', message: 'kept' },
    { input: 'plain', code: 'ipc', message: 'plain' },
  ];
  for (const c of cases) {
    it(String(c.input), () => {
      const err = fromIpcError(c.input);
      expect([err.code, err.message]).toEqual([c.code, c.message]);
    });
  }
});

describe('createIpcClient', () => {
  it('forwards every command and event through the bridge', async () => {
    const calls: [string, unknown[]][] = [];
    const listeners = new Map<string, (p: unknown) => void>();
    const bridge: TidingsBridge = {
      invoke: async (method, args) => {
        calls.push([method, args]);
        return method === 'listFeeds' ? [] : undefined;
      },
      on: (event, listener) => {
        listeners.set(event, listener);
        return () => listeners.delete(event);
      },
    };
    const client = createIpcClient(bridge);
    expect(await client.listFeeds()).toEqual([]);
    await client.refresh(undefined);
    await client.setStarred(5, true);
    expect(calls).toEqual([
      ['listFeeds', []],
      ['refresh', []],
      ['setStarred', [5, true]],
    ]);

    const seen: unknown[] = [];
    const off = client.on('feeds.changed', (p) => seen.push(p));
    listeners.get('feeds.changed')?.({ count: 2 });
    off();
    expect(seen).toEqual([{ count: 2 }]);
    expect(listeners.has('feeds.changed')).toBe(false);
    expect(client.connection()).toBe('open');
  });
});

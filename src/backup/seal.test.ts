import { describe, expect, it } from 'vitest';
import { passphraseProblem, seal, unseal } from './seal.ts';

// The real cost is half a second a try; these tests check the construction, at a lower cost.
const CHEAP = { N: 2 ** 10, r: 8, p: 1 };
const secret = Buffer.from('{"password":"hunter2-hunter2"}');

describe('sealed secrets', () => {
  it('open with the passphrase they were sealed with, and hold no plain text', async () => {
    const box = await seal(secret, 'correct horse', 'backup-1', CHEAP);
    expect(JSON.stringify(box)).not.toContain('hunter2');
    const opened = await unseal(box, 'correct horse', 'backup-1');
    expect(opened.ok && opened.value.toString()).toBe(secret.toString());
  });

  it('refuse a wrong passphrase, a changed byte, and a box moved into another backup', async () => {
    const box = await seal(secret, 'correct horse', 'backup-1', CHEAP);
    const wrong = await unseal(box, 'correct horsf', 'backup-1');
    expect(!wrong.ok && wrong.error.code).toBe('backup.wrongPassphrase');
    const data = Buffer.from(box.data, 'base64');
    data[3] = data[3]! ^ 1;
    const changed = await unseal({ ...box, data: data.toString('base64') }, 'correct horse', 'backup-1');
    expect(changed.ok).toBe(false);
    const moved = await unseal(box, 'correct horse', 'backup-2');
    expect(moved.ok).toBe(false);
  });

  it('refuse at once parameters that would make scrypt run for minutes', async () => {
    const box = await seal(secret, 'correct horse', 'b', CHEAP);
    const started = Date.now();
    const r = await unseal({ ...box, N: 2 ** 24, p: 64 }, 'correct horse', 'b');
    expect(!r.ok && r.error.code).toBe('backup.damaged');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('seal with the real cost by default, and ask for 8 characters at least', async () => {
    const box = await seal(secret, 'correct horse', 'b');
    expect(box).toMatchObject({ kdf: 'scrypt', N: 2 ** 17, r: 8, p: 1, cipher: 'aes-256-gcm' });
    expect(passphraseProblem('seven77')).toMatch(/at least 8/);
    expect(passphraseProblem('eight888')).toBeNull();
  });
});

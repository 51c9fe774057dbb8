/** A Node older than 24 on this machine, as a user might have (tests of what an older Node is told). */
import { execFileSync } from 'node:child_process';

export function olderNode(): string | null {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node', '/bin/node']) {
    try {
      const v = execFileSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
      if (Number(v.split('.')[0]) < 24) return candidate;
    } catch {
      // not there
    }
  }
  return null;
}

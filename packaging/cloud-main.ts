/**
 * The entry of the `tidings-cloud` package's bundle (lib/tidings-cloud.mjs, built by
 * scripts/pack-cloud.mjs): the same command as `tidings cloud`, under its own name. The launcher
 * (bin/tidings-cloud.cjs) checks the Node version first, then calls `main`.
 */
import { runCloudCli } from '../src/cloud/cli.ts';

export function main(argv: string[]): Promise<number> {
  return runCloudCli(argv, { program: 'tidings-cloud' });
}

#!/usr/bin/env node
// The `tidings-cloud` command of the cloud's own package. Bundled by scripts/pack-cloud.mjs into
// plain JavaScript that any Node can read, so that on a Node older than the one the cloud needs
// it says so in one sentence instead of failing on syntax it cannot parse.
'use strict';
const path = require('node:path');
const { tooOldNode } = require('../../scripts/node-version.cjs');

const tooOld = tooOldNode();
if (tooOld) {
  console.error(
    `tidings-cloud: ${tooOld}. Install Node 24 or newer (https://nodejs.org/ or your system's ` +
      'packages) and run it with that, or run the cloud from its container image.',
  );
  process.exit(1);
}
// Compiled modules are cached (in the system's temp folder): later starts take less CPU.
require('node:module').enableCompileCache?.();
import(require('node:url').pathToFileURL(path.join(__dirname, '..', 'lib', 'tidings-cloud.mjs')).href)
  .then((cloud) => cloud.main(process.argv.slice(2)))
  .then(
    // At once, as `tidings cloud` does: the log is flushed, and a second Ctrl-C landing while the
    // loop drains would kill the process by signal.
    (code) => process.exit(code),
    (e) => {
      console.error(`tidings-cloud: ${e?.message ?? e}`);
      process.exit(1);
    },
  );

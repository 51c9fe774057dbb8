// The Node.js the app and its tests run on: the `node` package pinned in devDependencies, which
// `npm ci` installs into node_modules/node (and node_modules/.bin, first on PATH in npm scripts).
// Its install script fetches the binary, and npm 12 runs a dependency's install script only when
// package.json's `allowScripts` allows it: without that entry the pinned Node is missing and the
// machine's own runs everything (Node 20 on a fresh machine here), failing far from the cause.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

/** The oldest Node the sources run on (type stripping, node:sqlite): the Node Electron 45 bundles. */
const NEEDED_MAJOR = 24;

/** The pinned Node's binary in node_modules (it may be missing). */
const bundledNode = (root) => path.join(root, 'node_modules', 'node', 'bin', 'node');

/**
 * Null on Node 24 or later; else what is wrong, for a person, without advice (each caller knows
 * its own: the repository's npm scripts, the cloud's package). Written for any Node (the cloud's
 * launcher runs it before anything newer is loaded).
 */
function tooOldNode() {
  if (Number(process.versions.node.split('.')[0]) >= NEEDED_MAJOR) return null;
  return `needs Node ${NEEDED_MAJOR} or newer (this is ${process.version}, ${process.execPath})`;
}

/** Null when this process runs on Node 24 or later; else why not, for a person. */
function nodeVersionProblem(root) {
  // Every `tidings` command starts here: on a new enough Node, nothing is read.
  const here = tooOldNode();
  if (here === null) return null;
  // The exact version pinned, for the advice (a packaged build's package.json may lack it).
  const pinned = require(path.join(root, 'package.json')).devDependencies?.node ?? String(NEEDED_MAJOR);
  if (fs.existsSync(bundledNode(root)))
    return `${here}. Node ${pinned} is installed in node_modules: run this through npm (npm start, npm test), which puts node_modules/.bin first on PATH.`;
  return (
    `${here}. \`npm ci\` installs Node ${pinned} into node_modules (the \`node\` package in devDependencies); ` +
    'npm 12 and later run its install script only while package.json lists "node": true under "allowScripts".'
  );
}

module.exports = { nodeVersionProblem, bundledNode, tooOldNode, NEEDED_MAJOR };

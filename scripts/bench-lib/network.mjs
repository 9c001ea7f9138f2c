// A slow network in front of a loopback server, for the bench's phone profile: a TCP proxy that
// delays every byte by half the round trip in each direction, paces each direction to its
// bandwidth (shared by all connections, as one radio link is), and charges a new connection one
// round trip for its handshake. Chromium's own throttling (DevTools' Network.emulateNetworkConditions)
// was tried first and let a request through unthrottled after another was cancelled (the wasm of
// a wrongly guessed player), so the cost of a wrong guess could not be seen; a network outside the
// browser treats every request alike.
import net from 'node:net';

const PIECE = 4096;   // paced in pieces this big, so that one large chunk is not delivered at once

// Returns a function that books `bytes` on a link of `bytesPerSecond` and says when they will have
// gone through (ms since the epoch).
function pacer(bytesPerSecond) {
  let free = 0;
  return (bytes) => {
    free = Math.max(Date.now(), free) + bytes * 1000 / bytesPerSecond;
    return free;
  };
}

// Starts the proxy in front of 127.0.0.1:`port`. Resolves to { url, close() }, `url` the same
// server's, through the proxy.
export function slowNetwork(port, { rttMs, downBytesPerSecond, upBytesPerSecond }) {
  const down = pacer(downBytesPerSecond), up = pacer(upBytesPerSecond);
  const sockets = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.setNoDelay(true);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => { client.destroy(); upstream.destroy(); });
    }
    const opened = Date.now() + rttMs;   // the handshake's round trip
    // Bytes from `from` reach `to` once paced through the link and half a round trip later. The
    // due times only grow, so the timers deliver the pieces in order.
    const forward = (from, to, pace, notBefore) => {
      let last = 0;
      from.on('data', (chunk) => {
        for (let at = 0; at < chunk.length; at += PIECE) {
          const piece = chunk.subarray(at, at + PIECE);
          last = Math.max(pace(piece.length) + rttMs / 2, notBefore, last);
          setTimeout(() => { if (!to.destroyed) to.write(piece); }, last - Date.now());
        }
      });
      from.on('end', () => setTimeout(() => { if (!to.destroyed) to.end(); }, Math.max(last, Date.now()) - Date.now()));
    };
    forward(client, upstream, up, opened);
    forward(upstream, client, down, 0);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({
      url: `http://127.0.0.1:${server.address().port}/`,
      close: () => new Promise((done) => { for (const socket of sockets) socket.destroy(); server.close(() => done()); }),
    }));
  });
}

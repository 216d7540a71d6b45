// A TCP proxy that makes a loopback peer answer like a host across the internet: every chunk the
// peer sends back reaches the client `delay` ms later (in order), so each request and response
// exchange of a probe takes that much longer, while the peer's own CPU cost stays what it was.
// Usage: node bench/delay-proxy.mjs <target port> <delay ms>; prints "listening <port>".
import net from 'node:net';

const [targetPort, delayArg] = process.argv.slice(2).map(Number);
const delay = delayArg ?? 0;

const server = net.createServer((client) => {
  const peer = net.connect(targetPort, '127.0.0.1');
  client.pipe(peer);
  // Equal delays fire in the order they were set, so the chunks keep their order.
  peer.on('data', (chunk) => setTimeout(() => client.writable && client.write(chunk), delay));
  peer.on('end', () => setTimeout(() => client.end(), delay));
  const close = () => {
    client.destroy();
    peer.destroy();
  };
  client.on('error', close);
  peer.on('error', close);
  client.on('close', () => peer.destroy());
});
// Every loopback address (127.0.0.1 .. 127.0.0.50 in the bench's URLs) reaches it.
server.listen(0, '0.0.0.0', () => process.stdout.write(`listening ${server.address().port}\n`));

// A DNS server for tests on loopback (UDP): answers TXT queries from a table the test fills, and
// NXDOMAIN for any other name, so DNS proofs of control are checked against a real resolver
// exchange (Rollcall asks it through CLAIM_DNS_SERVERS) without leaving the machine.
import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import packet from 'dns-packet';

export interface DnsPeer {
  /** `127.0.0.1:<port>`, for CLAIM_DNS_SERVERS. */
  server: string;
  /** TXT records per name (lower case, no trailing dot); a test changes it at will. */
  txt: Map<string, string[]>;
  /** Names asked, in order. */
  asked: string[];
  close(): Promise<void>;
}

/** `unref`: the server does not keep the test process alive (one shared by a whole test file). */
export async function startDnsServer(options: { unref?: boolean } = {}): Promise<DnsPeer> {
  const socket = dgram.createSocket('udp4');
  const txt = new Map<string, string[]>();
  const asked: string[] = [];
  socket.on('message', (msg, from) => {
    let query: packet.Packet;
    try {
      query = packet.decode(msg);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase().replace(/\.$/, '');
    asked.push(name);
    const records = question.type === 'TXT' ? txt.get(name) : undefined;
    const answer = packet.encode({
      id: query.id,
      type: 'response',
      flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | (records || txt.has(name) ? 0 : 3), // 3: NXDOMAIN
      questions: [question],
      answers: (records ?? []).map((data) => ({ type: 'TXT' as const, class: 'IN' as const, name: question.name, ttl: 60, data })),
    });
    socket.send(answer, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  if (options.unref) socket.unref();
  return {
    server: `127.0.0.1:${(socket.address() as AddressInfo).port}`,
    txt,
    asked,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

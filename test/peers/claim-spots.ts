// Where a test peer shows a Rollcall proof of control, changed by the test at will: the body of
// its /.well-known/rollcall-claim.txt (undefined: 404), and the proof its card carries (an agent
// card's capabilities.extensions[], an MCP server's initialize and server/discover `_meta`).
import type http from 'node:http';

export interface ClaimSpots {
  file?: string;
  card?: string;
  /** Requests for the claim file, to count what a verification fetched. */
  fileHits: number;
  /** Every request the peer answered (its file, its endpoint, anything else): what the host saw. */
  requests: number;
}

export const newClaimSpots = (): ClaimSpots => ({ fileHits: 0, requests: 0 });

export const CLAIM_FILE_PATH = '/.well-known/rollcall-claim.txt';

/** Answers a request for the claim file; false when the request is for something else. */
export function serveClaimFile(spots: ClaimSpots, req: http.IncomingMessage, res: http.ServerResponse): boolean {
  if (req.method !== 'GET' || new URL(req.url ?? '/', 'http://x').pathname !== CLAIM_FILE_PATH) return false;
  spots.fileHits++;
  if (spots.file === undefined) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  } else {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(spots.file);
  }
  return true;
}

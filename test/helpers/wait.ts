import type { App } from '../../src/app.ts';

/** Polls GET /api/listings/status until the lane is one of `lanes`; returns the status body. */
export async function waitForLane(app: App, id: string, lanes: string[], timeoutMs = 20_000): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await app.http.inject({ method: 'GET', url: `/api/listings/status?id=${id}` });
    const body = res.json();
    if (lanes.includes(body.lane)) return body;
    if (Date.now() > deadline) throw new Error(`listing ${id} stayed in lane ${body.lane} (${body.lane_reason ?? ''}); wanted ${lanes.join('|')}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

// The in-process probe scheduler: publish wakes it and the probe starts at once in this instance
// (DESIGN.md), a few at a time. Listings left queued or probing by a stopped process are picked
// up again at start, so none is lost.
import type { Services } from '../platform/operation.ts';
import { iso } from '../platform/clock.ts';
import { findListingById, updateListing } from '../listings/store.ts';
import type { ProbeScheduler } from './scheduler.ts';
import type { Prober } from './prober.ts';
import { applyProbe } from './apply.ts';

export class LocalProbeScheduler implements ProbeScheduler {
  private readonly queue: string[] = [];
  private readonly pending = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closing = false;

  constructor(
    private readonly services: Omit<Services, 'probes'>,
    private readonly prober: Prober,
    private readonly concurrency: number,
  ) {}

  wake(listingId: string): void {
    if (this.closing || this.pending.has(listingId)) return;
    this.pending.add(listingId);
    const delayMs = this.services.config.probeDelayS * 1000;
    if (delayMs <= 0) return this.enqueue(listingId);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.enqueue(listingId);
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  /** Wakes every listing a previous process left waiting. */
  async resume(): Promise<number> {
    const rows = await this.services.db.kysely.selectFrom('listings').select('id').where('lane', 'in', ['queued', 'probing']).orderBy('created_at').execute();
    for (const r of rows) this.wake(r.id);
    return rows.length;
  }

  private enqueue(id: string) {
    this.queue.push(id);
    this.pump();
  }

  private pump() {
    while (!this.closing && this.running.size < this.concurrency && this.queue.length) {
      const id = this.queue.shift()!;
      const run: Promise<void> = this.probeOne(id)
        .catch((err) => this.services.log.error({ err, listingId: id }, 'probe failed unexpectedly'))
        .finally(() => {
          this.running.delete(run);
          this.pending.delete(id);
          this.pump();
        });
      this.running.add(run);
    }
  }

  private async probeOne(id: string) {
    const { db, clock } = this.services;
    const row = await findListingById(db.kysely, id);
    if (!row) return;
    if (row.lane !== 'active') await updateListing(db, id, { lane: 'probing' }, iso(clock.now()));
    const report = await this.prober.probe(row.url, {
      hint: row.kind,
      takenByOther: async (url) => Boolean(await db.kysely.selectFrom('listings').select('id').where('url', '=', url).where('id', '!=', id).executeTakeFirst()),
    });
    await applyProbe(db, id, report, iso(clock.now()));
    this.services.log.info({ listingId: id, live: report.live, reason: report.reason, score: report.score }, 'probe finished');
  }

  async close(): Promise<void> {
    this.closing = true;
    this.queue.length = 0;
    for (const t of this.timers) clearTimeout(t);
    await Promise.all(this.running);
    await this.prober.close();
  }
}

// A piece of work that makes several requests to one host (a probe: half a dozen) counts them
// ahead with one take instead of one take each: without Redis every take is a statement. The
// requests it did not make are given back when it ends, in the statement that writes its result.
// Meanwhile the host's count shows them as made, so another piece of work may be refused a little
// early, never late: at most `ahead` - 1 requests per running piece of work. Requests are taken
// ahead only from a large enough hourly budget (host-budgets.ts AHEAD_SHARE) and only while the
// whole take fits under the public share; otherwise every request is taken one by one.
import { OutboundError } from '../net/guarded-client.ts';
import { known, type Part } from '../db/together.ts';

/** What a reservation needs of the host budgets (host-budgets.ts HostBudgets). */
export interface RequestBudgets {
  takeAhead(host: string, n: number): Promise<string | undefined>;
  giveBackRequests(host: string, period: string, n: number): Promise<Part<void>>;
  admit(host: string, share: 'public' | 'owner'): Promise<void>;
}

export class HostReservation {
  /** Requests taken ahead and not made yet. */
  private left = 0;
  /** The take ahead was tried (in `period` when it was counted). */
  private tried = false;
  private period?: string;
  /** Whose work it is, once asked (only when the public share had no room). */
  private owner?: boolean;

  constructor(
    private readonly budgets: RequestBudgets,
    readonly host: string,
    private readonly ahead: number,
    private readonly isOwner: () => Promise<boolean>,
    /** The take ahead made already (with the work's claim): counted in this period, or refused. */
    takenIn?: { period: string | undefined },
  ) {
    if (!takenIn) return;
    this.tried = true;
    this.period = takenIn.period;
    if (takenIn.period !== undefined) this.left = ahead;
  }

  /**
   * The admit hook of the work's requests: the requests taken ahead for its host first (the first
   * request to it takes them), then one take per request. Public work uses the public share; when
   * that has no room and the work is an owner's, the owner's share.
   */
  readonly admit = async (host: string): Promise<void> => {
    if (host === this.host && this.left > 0) {
      this.left--;
      return;
    }
    if (host === this.host && !this.tried && this.ahead > 1) {
      this.tried = true;
      this.period = await this.budgets.takeAhead(host, this.ahead);
      if (this.period !== undefined) {
        this.left = this.ahead - 1;
        return;
      }
    }
    await this.take(host);
  };

  private async take(host: string): Promise<void> {
    const share = this.owner ? 'owner' : 'public';
    try {
      await this.budgets.admit(host, share);
    } catch (err) {
      if (share === 'owner' || !(err instanceof OutboundError) || err.reason !== 'host_budget') throw err;
      this.owner = await this.isOwner();
      if (!this.owner) throw err;
      await this.budgets.admit(host, 'owner');
    }
  }

  /** Gives back the requests taken ahead and not made (BudgetCounters.giveBack); once. */
  async giveBack(): Promise<Part<void>> {
    const n = this.left;
    this.left = 0;
    if (n === 0 || this.period === undefined) return known(undefined);
    return this.budgets.giveBackRequests(this.host, this.period, n);
  }
}

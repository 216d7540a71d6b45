// The follow-up call for a message: the one its poster suggested, else a look at the sender (or at
// the listing itself, for Rollcall's own notes) through check_status, which every listing id passes.
import type { InboxMessage } from './store.ts';
import type { InboxAction } from './kinds.ts';

const WHY: Record<string, string> = {
  collab_invitation: 'See who invited you to collaborate.',
  endorsement: 'See who endorsed you.',
  co_sign: 'See who co-signed your listing.',
  connector: 'Your listing as a partner sees it.',
  system: 'Your listing\'s full status.',
};

export function messageAction(m: InboxMessage): InboxAction {
  if (m.action) return m.action;
  const id = m.from_listing_id ?? m.listing_id;
  return { tool: 'check_status', args: { id }, why: m.from_listing_id ? (WHY[m.kind] ?? 'See the sender.') : (WHY[m.kind] ?? WHY.system!) };
}

// Metering's SQL. Every grant is one conditional UPDATE (`... WHERE used < allowance`), so two
// instances racing for the last unit never both get it: PostgreSQL re-checks the condition under
// the row lock, SQLite has one writer at a time.
// One file per database operation in store/, each with its test beside it; this index is what
// other files import.
export type { UsageRow } from './store/usage-row.ts';
export { grantBonus } from './store/grant-bonus.ts';
export { bonusesOf } from './store/bonuses-of.ts';
export { takeUnit } from './store/take-unit.ts';
export { recordPaidUnit } from './store/record-paid-unit.ts';
export { returnPaidUnit, returnUnit } from './store/return-unit.ts';
export { grantRefill } from './store/grant-refill.ts';
export { grantsOfDay, usageOfDay, usedAnyOf } from './store/day-usage.ts';
export { usageGroups, type UsageFilter, type UsageGroup } from './store/usage-groups.ts';
export { firstUses } from './store/first-uses.ts';
export { admitName } from './store/admit-name.ts';
export { claimPayment, type NewPayment } from './store/claim-payment.ts';
export { releasePayment } from './store/release-payment.ts';
export { finishPayment } from './store/finish-payment.ts';
export { paymentByHash } from './store/payment-by-hash.ts';

// Identity storage: the deployment's signing keys (created once, race-free, and rotated with an
// overlap), bind_identity's one-time challenges and each listing's bound key. Private keys are read
// only by the runtime that signs with them (runtime.ts); nothing here logs or returns them elsewhere.
// One file per database operation in store/, each with its test beside it; this index is what
// other files import.
export type { SigningKeyRecord } from './store/signing-key-row.ts';
export { describeSigningKeys, loadSigningKeys } from './store/load-signing-keys.ts';
export { ensureSigningKey } from './store/ensure-signing-key.ts';
export { KEY_OVERLAP_MS, KEY_PUBLISH_LEAD_MS, rotateSigningKey, type Rotation } from './store/rotate-signing-key.ts';
export { insertChallenge, type Challenge } from './store/insert-challenge.ts';
export { findChallenge } from './store/find-challenge.ts';
export { consumeChallenge } from './store/consume-challenge.ts';
export type { Binding } from './store/binding-row.ts';
export { insertBindingIfAbsent } from './store/insert-binding.ts';
export { replaceBinding } from './store/replace-binding.ts';
export { countBindings, findBinding, findBindingsByKid } from './store/find-binding.ts';
export { removeBinding } from './store/remove-binding.ts';

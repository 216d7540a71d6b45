// Booleans are stored as 0/1 integers on both engines (docs/decisions/storage-types.md).
export type Flag = 0 | 1;
export const flag = (b: boolean): Flag => (b ? 1 : 0);

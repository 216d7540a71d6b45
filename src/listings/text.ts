// Text that listings supply is untrusted data (DESIGN.md "Safety rules"): control characters
// stripped, whitespace collapsed, lengths capped, before it is stored or shown.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g;

export const MAX_NAME = 120;
export const MAX_DESCRIPTION = 1000;

export function cleanText(value: string, max: number): string {
  const flat = value.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

// ARD identifiers (`urn:air:<host>:<kind>:<id>`) for what Rollcall describes: its own surfaces in
// the discovery documents and every search hit. The host is PUBLIC_BASE_URL's host name without
// its port (a colon would split the URN), with anything outside [A-Za-z0-9.-] made a hyphen.
export const airHost = (base: string): string => new URL(base).hostname.replace(/[^a-zA-Z0-9.-]/g, '-');

/** The id part keeps `/` and `:` out of the URN's structure (catalog names contain slashes). */
export const airUrn = (base: string, kind: string, id: string): string => `urn:air:${airHost(base)}:${kind}:${encodeURIComponent(id)}`;

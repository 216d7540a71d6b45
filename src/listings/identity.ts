// What makes two URLs one listing (docs/decisions/one-server-one-listing.md). The
// normalized URL stays the listing's unique column; its alias key also drops trailing slashes of
// the path, since `/mcp` and `/mcp/` reach one endpoint everywhere we have seen. The query is kept:
// it may select another configuration of one server, so URLs that differ in it stay apart.

/** The alias key of an already normalized http(s) URL. */
export function endpointKey(url: string): string {
  const u = new URL(url);
  u.hash = '';
  u.pathname = u.pathname.replace(/\/+$/, '') || '/';
  return u.toString();
}

/** Whether two normalized URLs are spellings of one endpoint (one alias key). */
export const sameSpelling = (a: string, b: string): boolean => endpointKey(a) === endpointKey(b);

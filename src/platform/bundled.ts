// Whether this code runs as the build in dist/ (scripts/build.mjs defines ROLLCALL_BUNDLED) or
// from src/ through tsx (tests, the command line, benches). Only what locates files by
// import.meta.url needs to know: in dist/, every module is a chunk in dist/ itself.
declare const ROLLCALL_BUNDLED: boolean | undefined;

export const bundled: boolean = typeof ROLLCALL_BUNDLED !== 'undefined' && ROLLCALL_BUNDLED === true;

/**
 * Node's flags for the platform's services (the API server and the media service), as `npm start` and the
 * systemd units run them. A young generation of at most 8 MB: by default V8 grows it while the server loads
 * its modules and keeps the pages, so an idle API server held some 300 MB where 150 MB do (issue 34, light
 * servers; bench/api/idle-memory.ts).
 */
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=8'];

/**
 * And for their bundles (`build-services.ts`), which hold no TypeScript: a `.ts` module loaded by mistake fails at
 * once rather than loading Node's type stripper (a WebAssembly compiler, some 17 MB) into the service.
 */
export const BUNDLE_NODE_FLAGS = ['--no-experimental-strip-types'];

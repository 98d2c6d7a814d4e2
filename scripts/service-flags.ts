/**
 * Node's flags for the platform's services (the API server and the media service), as `npm start` and the
 * systemd units run them. A young generation of at most 8 MB: by default V8 grows it while the server loads
 * its modules and keeps the pages, so an idle API server held some 300 MB where 150 MB do (issue 34, light
 * servers; bench/api/idle-memory.ts).
 */
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=8'];

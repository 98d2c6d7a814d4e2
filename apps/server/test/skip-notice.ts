/**
 * Tells the person running the tests, loudly, that some were skipped and why (a service absent on a developer's
 * machine; with CI=true such a test fails instead). Written to stderr: the services' code has no console, and
 * their tests follow the same rule.
 */
export function skipNotice(message: string): void {
  process.stderr.write(`\n!!! ${message} !!!\n`);
}

import { BlockList, isIP } from 'node:net';

/** The headers a proxy in front of the service adds: a request carrying one came through it. */
export const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

/**
 * Who may read `/metrics`: loopback, and the addresses and CIDRs of METRICS_ALLOW (already checked by the
 * config). IPv4-mapped IPv6 addresses (`::ffff:127.0.0.1`, as a dual-stack socket reports IPv4 callers) count
 * as the IPv4 address they carry.
 */
export function metricsAccess(allow: readonly string[]): (address: string | undefined) => boolean {
  const list = new BlockList();
  list.addSubnet('127.0.0.0', 8, 'ipv4');
  list.addAddress('::1', 'ipv6');
  for (const entry of allow) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return (address) => {
    if (!address) return false;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    const plain = mapped ?? address;
    const version = isIP(plain);
    return version !== 0 && list.check(plain, version === 6 ? 'ipv6' : 'ipv4');
  };
}

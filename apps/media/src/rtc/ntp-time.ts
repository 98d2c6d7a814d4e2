/** Seconds from the NTP epoch (1900) to the Unix epoch (1970). */
const NTP_UNIX_OFFSET_S = 2_208_988_800;

/** A 64-bit NTP timestamp (RFC 3550): seconds since 1900 and the fraction of a second in 1/2^32. */
export function ntpTimestamp(unixMs: number): bigint {
  const seconds = Math.floor(unixMs / 1000);
  const fraction = Math.floor(((unixMs - seconds * 1000) / 1000) * 2 ** 32);
  return (BigInt(seconds + NTP_UNIX_OFFSET_S) << 32n) | BigInt(fraction);
}

/**
 * The NTP time of a send, for the sender's `ntpTimestamp` (werift puts it in its sender report with the last
 * packet's RTP time): whole milliseconds, one value per millisecond, since every student of a packet is sent
 * within the same one or two. A field written per packet, not an accessor: redefining a property of the sender
 * would turn it into a dictionary-mode object, and every read of it in this path into a hash lookup.
 */
export function sentNtp(unixMs: number): bigint {
  const ms = Math.floor(unixMs);
  if (ms !== lastSentNtp.ms) lastSentNtp = { ms, value: ntpTimestamp(ms) };
  return lastSentNtp.value;
}
let lastSentNtp = { ms: -1, value: 0n };

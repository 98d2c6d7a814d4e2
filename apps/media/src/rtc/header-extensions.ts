import { RTP_EXTENSION_URI, serializeSdesMid } from 'werift';

/** A header extension as werift's headers hold it. */
export type Extension = { id: number; payload: Buffer };

/** A sender's negotiated extensions in id order: what its forwarded packets carry besides the payload. */
export type Plan = { id: number; uri: string }[];

/** The extensions the forwarding path writes itself: the mid and abs-send-time. */
const HANDLED = new Set<string>([RTP_EXTENSION_URI.sdesMid, RTP_EXTENSION_URI.absSendTime]);
const midPayloads = new Map<string, Buffer>();

/** Whether the forwarding path writes every one of these extensions itself (else werift's path sends). */
export function handlesAll(extensions: readonly { uri: string }[]): boolean {
  return extensions.every((extension) => HANDLED.has(extension.uri));
}

/** The sender's extensions (as werift writes them: in id order, the packet's own ones kept unless replaced). */
export function extensions(
  plan: Plan,
  mid: string | undefined,
  original: Extension[],
  abs: number,
): Extension[] {
  const out = plannedExtensions(plan, mid, abs);
  if (original.length === 0) return out; // forwarded packets carry none (the producer strips them)
  for (const extension of original) {
    const existing = out.find((e) => e.id === extension.id);
    if (existing) existing.payload = extension.payload;
    else out.push(extension);
  }
  return out.sort((a, b) => a.id - b.id);
}

/** The plan's extensions for a packet: the mid, and abs-send-time with this value. */
export function plannedExtensions(plan: Plan, mid: string | undefined, abs: number): Extension[] {
  const out: Extension[] = [];
  for (const { id, uri } of plan) {
    if (uri === RTP_EXTENSION_URI.sdesMid) {
      if (mid) out.push({ id, payload: midPayload(mid) });
    } else {
      out.push({ id, payload: absSendTimePayload(abs) });
    }
  }
  return out;
}

function midPayload(mid: string): Buffer {
  let payload = midPayloads.get(mid);
  if (!payload) {
    payload = serializeSdesMid(mid);
    midPayloads.set(mid, payload);
  }
  return payload;
}

/** The id of the plan's abs-send-time extension, or -1. */
export function absSendTimeId(plan: Plan): number {
  return plan.find(({ uri }) => uri === RTP_EXTENSION_URI.absSendTime)?.id ?? -1;
}

/** abs-send-time: seconds in 6.18 fixed point, modulo 64 (the NTP and Unix epochs differ by whole minutes). */
export function absSendTime(unixMs: number): Buffer {
  return absSendTimePayload(absSendTimeValue(unixMs));
}

/** abs-send-time's value (see {@link absSendTime}) at this wall-clock time. */
export function absSendTimeValue(unixMs: number): number {
  return Math.floor((unixMs / 1000) * 2 ** 18) % 2 ** 24;
}

function absSendTimePayload(value: number): Buffer {
  // Every student of a packet is sent within the same few µs: one buffer per value (never written after).
  if (value === lastAbsSendTime.value) return lastAbsSendTime.payload;
  const payload = Buffer.alloc(3);
  payload.writeUIntBE(value, 0, 3);
  lastAbsSendTime = { value, payload };
  return payload;
}
let lastAbsSendTime = { value: -1, payload: Buffer.alloc(3) };

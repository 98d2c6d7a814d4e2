import { ExtensionProfiles, RtpHeader, RtpPacket } from 'werift';

/**
 * A copy of a teacher's packet fit to forward: header extensions removed (their ids are the teacher's
 * negotiation and collide with each student's; werift's sender adds the student's own), the payload shared.
 * The SFU never changes payloads per student; anything that would must copy the payload first, because every
 * student's sender gets this same buffer.
 */
export function forwardable(packet: RtpPacket): RtpPacket {
  const header = new RtpHeader({
    ...packet.header,
    extension: false,
    extensions: [],
    extensionProfile: ExtensionProfiles.OneByte,
  });
  return new RtpPacket(header, packet.payload);
}

import { createContext, useContext } from 'react';
import { ROUTES, toPath } from '@sea/contract/paths';
import type { LiveTicket } from '@sea/contract/live-ticket';
import { http } from '../../lib/http.ts';
import { SignallingClient, type SignallingLike, type SignallingState } from './signalling-client.ts';
import { SpeakerListener } from './speaker-listener.ts';
import { StudentSpeaker } from './student-speaker.ts';
import { StudentViewer } from './student-viewer.ts';
import { TeacherPublisher } from './teacher-publisher.ts';

/** A signalling connection as the room hooks use it. */
export type LiveSignalling = SignallingLike & { readonly state: SignallingState; close(): void };
/** The parts of a {@link TeacherPublisher} the teacher room uses. */
export type PublisherLike = Pick<
  TeacherPublisher,
  'start' | 'publish' | 'unpublish' | 'setRecording' | 'on' | 'close' | 'mediaState'
>;
/** The parts of a {@link StudentViewer} the student room uses. */
export type ViewerLike = Pick<
  StudentViewer,
  'join' | 'setLayer' | 'setDataSaving' | 'setMaterialOnStage' | 'on' | 'close' | 'mediaState'
>;

/** The parts of a {@link StudentSpeaker} the student room uses. */
export type SpeakerLike = Pick<StudentSpeaker, 'accept' | 'decline' | 'end' | 'on' | 'close' | 'phase'>;
/** The parts of a {@link SpeakerListener} the teacher room uses. */
export type SpeakerListenerLike = Pick<SpeakerListener, 'invite' | 'end' | 'on' | 'close'>;

/** Everything the live rooms reach outside React: the media service and the capture devices. */
export type LiveServices = {
  /** Gets a live ticket for the class and opens the signalling connection with it. */
  connect: (classId: number) => Promise<LiveSignalling>;
  /** `record`: whether a session it starts is recorded (default true). */
  createPublisher: (signalling: LiveSignalling, options?: { record?: boolean }) => PublisherLike;
  createViewer: (signalling: LiveSignalling) => ViewerLike;
  /** A student's speaking at the teacher's invitation (asks for the microphone through {@link getUserMedia}). */
  createSpeaker: (signalling: LiveSignalling) => SpeakerLike;
  /** The teacher's invitations, and the speakers' voices. */
  createSpeakerListener: (signalling: LiveSignalling) => SpeakerListenerLike;
  getUserMedia: (constraints: MediaStreamConstraints) => Promise<MediaStream>;
  getDisplayMedia: (options: DisplayMediaStreamOptions) => Promise<MediaStream>;
};

/**
 * A live ticket; `unreachable`: the node URL just lost or found unreachable (the API server leaves it out if
 * gone).
 */
async function fetchTicket(classId: number, unreachable?: string): Promise<LiveTicket> {
  const query = unreachable ? `?unreachable=${encodeURIComponent(unreachable)}` : '';
  return http<LiveTicket>(`${toPath(ROUTES.liveTicket, { classId })}${query}`);
}

/** The real services: the API server's ticket, socket.io signalling, the browser's devices. */
export const browserLiveServices: LiveServices = {
  connect: async (classId) => {
    const first = await fetchTicket(classId);
    let unused: string | null = first.ticket;
    return new SignallingClient({
      url: first.mediaUrl,
      // The first ticket is used once; every reconnection asks for a fresh one (tickets live a few minutes).
      getTicket: async () => {
        const ticket = unused ?? (await fetchTicket(classId)).ticket;
        unused = null;
        return ticket;
      },
      // The media node cannot be reached: a fresh ticket names where the class is served now.
      relocate: async (unreachable) => {
        const fresh = await fetchTicket(classId, unreachable);
        return { url: fresh.mediaUrl, ticket: fresh.ticket };
      },
    });
  },
  createPublisher: (signalling, options) => new TeacherPublisher({ signalling, record: options?.record }),
  createViewer: (signalling) => new StudentViewer({ signalling }),
  createSpeaker: (signalling) =>
    new StudentSpeaker({ signalling, getUserMedia: (c) => navigator.mediaDevices.getUserMedia(c) }),
  createSpeakerListener: (signalling) => new SpeakerListener({ signalling }),
  getUserMedia: (constraints) => navigator.mediaDevices.getUserMedia(constraints),
  getDisplayMedia: async (options) => {
    // Phones' browsers have no display capture at all (the method is missing): say so in the DOM's own words.
    if (typeof navigator.mediaDevices?.getDisplayMedia !== 'function') {
      throw new DOMException('display capture is not supported', 'NotSupportedError');
    }
    return navigator.mediaDevices.getDisplayMedia(options);
  },
};

/** Which services the live rooms use; tests provide fakes. */
export const LiveServicesContext = createContext<LiveServices>(browserLiveServices);

/** The live services of the nearest provider (the browser's by default). */
export function useLiveServices(): LiveServices {
  return useContext(LiveServicesContext);
}

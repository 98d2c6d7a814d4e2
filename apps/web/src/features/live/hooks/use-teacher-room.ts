import { useCallback, useEffect, useRef, useState } from 'react';
import type { Participant, RecordingState, Speaker } from '@sea/contract/live';
import { isHttpError } from '../../../lib/http-error.ts';
import type { MediaState } from '../live-client.ts';
import {
  useLiveServices,
  type LiveSignalling,
  type PublisherLike,
  type SpeakerListenerLike,
} from '../live-services.ts';
import { roomStatus, type RoomStatus } from '../room-status.ts';
import { LiveRequestError, type SignallingState } from '../signalling-client.ts';
import { LIVE_TEXTS } from '../texts.ts';
import {
  capture,
  captureOutcome,
  TOGGLE_KINDS,
  TOGGLES,
  type ToggleName,
  type ToggleState,
} from '../toggles.ts';
import { useOutage, type Outage } from './use-outage.ts';
import { useRoomFailure } from './use-room-failure.ts';

export type TeacherRoom = {
  /** The room's status: the signalling connection, and once it is up, the media side (see roomStatus). */
  connection: RoomStatus;
  /** While the connection is lost after the room was opened: for how long (see useOutage); null otherwise. */
  outage: Outage | null;
  /** A Korean message when the room could not be opened (and it stays here to say so). */
  error: string | null;
  viewerCount: number;
  /** The students in the room, as the media service last told (kept through an outage until it tells again). */
  participants: Participant[];
  /** Whether the session is recorded (and paused), as the media service says; null until it has. */
  recording: RecordingState | null;
  /** A pause or resume asked for and not answered yet. */
  recordingBusy: boolean;
  /** Pauses a running recording, or resumes a paused one. */
  toggleRecording: () => void;
  toggles: Record<ToggleName, ToggleState>;
  /** Local previews: the captured webcam and screen tracks while on. */
  previews: { webcam: MediaStreamTrack | null; screen: MediaStreamTrack | null };
  /** The toggles work once the room's publisher exists. */
  ready: boolean;
  toggle: (name: ToggleName) => void;
  /** Ends the broadcast: stops the devices and closes the connection (the class stops being live). */
  leave: () => void;
  /**
   * Steps out without ending the lecture ('잠시 나가기'): tells the media service (which then keeps the room for
   * STEP_OUT_MS), then closes as {@link leave} does. Coming back is starting the room again.
   */
  stepOut: () => Promise<void>;
  speaking: TeacherSpeaking;
};

/** Students speaking at the teacher's invitation, as the teacher's room shows them. */
export type TeacherSpeaking = {
  /** Invited or speaking students (at most two). */
  speakers: Speaker[];
  /** The speakers' microphones being received (one audio element each). */
  tracks: MediaStreamTrack[];
  /** The media service's last refusal (a third speaker...), in Korean; cleared by the next success. */
  error: string | null;
  /** Invites a student with a raised hand (by user id). */
  invite: (userId: string) => void;
  /** Ends one student's speaking or invitation. */
  end: (userId: string) => void;
};

const OFF: Record<ToggleName, ToggleState> = {
  webcam: 'off',
  screen: 'off',
  microphone: 'off',
  systemAudio: 'off',
};

type Session = {
  signalling: LiveSignalling | null;
  publisher: PublisherLike | null;
  speakers: SpeakerListenerLike | null;
  /** Captured tracks per toggle (all of a capture, so all are stopped when it goes off). */
  tracks: Map<ToggleName, MediaStreamTrack[]>;
  closed: boolean;
  close: () => void;
};

/**
 * The teacher's live room: on mount gets a ticket, connects and opens the room (the class becomes live), then
 * publishes or stops each of the four streams on demand. A refused start goes where product-spec section 8
 * says (see useRoomFailure), or stays with a message. Unmounting or {@link TeacherRoom.leave} stops the
 * devices and closes everything (idempotent).
 */
export function useTeacherRoom(classId: number, options: { record?: boolean } = {}): TeacherRoom {
  const record = options.record ?? true;
  const services = useLiveServices();
  const fail = useRoomFailure('teacher', classId);
  const [signallingState, setSignallingState] = useState<SignallingState>('connecting');
  const [mediaState, setMediaState] = useState<MediaState>('connecting');
  const [error, setError] = useState<string | null>(null);
  const [viewerCount, setViewerCount] = useState(0);
  const [participants, setParticipants] = useState<Participant[]>([]);
  const [recording, setRecording] = useState<RecordingState | null>(null);
  const [recordingBusy, setRecordingBusy] = useState(false);
  const [toggles, setToggles] = useState(OFF);
  const [previews, setPreviews] = useState<TeacherRoom['previews']>({ webcam: null, screen: null });
  const [ready, setReady] = useState(false);
  const sessionRef = useRef<Session | null>(null);
  const [speakers, setSpeakers] = useState<Speaker[]>([]);
  const [speakerTracks, setSpeakerTracks] = useState<Record<string, MediaStreamTrack>>({});
  const [speakingError, setSpeakingError] = useState<string | null>(null);

  useEffect(() => {
    const unsubscribes: (() => void)[] = [];
    const session: Session = {
      signalling: null,
      publisher: null,
      speakers: null,
      tracks: new Map(),
      closed: false,
      close: () => {
        if (session.closed) return;
        session.closed = true;
        unsubscribes.forEach((unsubscribe) => unsubscribe());
        for (const tracks of session.tracks.values()) tracks.forEach((track) => track.stop());
        session.tracks.clear();
        session.publisher?.close();
        session.speakers?.close();
        session.signalling?.close();
      },
    };
    sessionRef.current = session;
    const setToggle = (name: ToggleName, state: ToggleState) =>
      setToggles((current) => ({ ...current, [name]: state }));

    void (async () => {
      try {
        const signalling = await services.connect(classId);
        if (session.closed) {
          signalling.close();
          return;
        }
        session.signalling = signalling;
        setSignallingState(signalling.state);
        unsubscribes.push(signalling.on('stateChanged', setSignallingState));
        const publisher = services.createPublisher(signalling, { record });
        session.publisher = publisher;
        setMediaState(publisher.mediaState);
        unsubscribes.push(
          publisher.on('mediaStateChanged', setMediaState),
          publisher.on('viewerCount', setViewerCount),
          publisher.on('participants', setParticipants),
          publisher.on('recordingState', setRecording),
          publisher.on('streamStateChanged', ({ kind, state }) => {
            const name = TOGGLES.find((toggle) => TOGGLE_KINDS[toggle] === kind);
            // A stream switched off by the teacher stays off even if the publisher reports late.
            if (name && (state === 'off' || session.tracks.has(name))) setToggle(name, state);
          }),
        );
        const listener = services.createSpeakerListener(signalling);
        session.speakers = listener;
        unsubscribes.push(
          listener.on('speakersChanged', setSpeakers),
          listener.on('trackAdded', ({ producerId, track }) =>
            setSpeakerTracks((current) => ({ ...current, [producerId]: track })),
          ),
          listener.on('trackRemoved', ({ producerId }) =>
            setSpeakerTracks((current) => {
              const next = { ...current };
              delete next[producerId];
              return next;
            }),
          ),
        );
        setReady(true);
        await publisher.start();
      } catch (cause) {
        // A refused token refresh logs out at once, and the route guard may leave the room before this answer
        // arrives: the notice and the login are still due.
        if (session.closed && !isHttpError(cause, 401)) return;
        session.close();
        const failure = fail(cause);
        if (failure.to !== null) return;
        setSignallingState('failed');
        setError(failure.message);
      }
    })();

    return () => session.close();
  }, [classId, services, fail, record]);

  const toggle = useCallback(
    (name: ToggleName) => {
      const session = sessionRef.current;
      const publisher = session?.publisher;
      if (!session || !publisher || session.closed) return;
      const setToggle = (state: ToggleState) => setToggles((current) => ({ ...current, [name]: state }));
      const setPreview = (track: MediaStreamTrack | null) => {
        if (name === 'webcam' || name === 'screen') setPreviews((current) => ({ ...current, [name]: track }));
      };
      const turnOff = () => {
        const tracks = session.tracks.get(name);
        if (!tracks) return;
        session.tracks.delete(name);
        tracks.forEach((track) => track.stop());
        setPreview(null);
        setToggle('off');
        void publisher.unpublish(TOGGLE_KINDS[name]).catch(() => undefined);
      };
      if (session.tracks.has(name)) {
        turnOff();
        return;
      }
      session.tracks.set(name, []); // on (capturing): a second click while capturing turns it off again
      setToggle('capturing');
      void (async () => {
        let captured: Awaited<ReturnType<typeof capture>>;
        try {
          captured = await capture(name, services);
        } catch (cause) {
          if (session.tracks.get(name)?.length !== 0) return; // turned off or left while the browser was asking
          session.tracks.delete(name);
          setToggle(captureOutcome(name, cause));
          return;
        }
        const { track, all } = captured;
        if (session.closed || session.tracks.get(name)?.length !== 0) {
          all.forEach((t) => t.stop()); // turned off or left while the browser was asking
          return;
        }
        if (!track) {
          session.tracks.delete(name);
          all.forEach((t) => t.stop());
          setToggle('unsupported');
          return;
        }
        session.tracks.set(name, all);
        // The browser's own 'stop sharing' ends the track: treat it as the toggle going off.
        track.addEventListener('ended', () => {
          if (session.tracks.get(name)?.includes(track)) turnOff();
        });
        setPreview(track);
        await publisher.publish(TOGGLE_KINDS[name], track).catch(() => undefined); // state comes as an event
      })();
    },
    [services],
  );

  const toggleRecording = useCallback(() => {
    const publisher = sessionRef.current?.publisher;
    if (!publisher || !recording?.recording || recordingBusy) return;
    setRecordingBusy(true);
    publisher
      .setRecording(recording.paused)
      .then(setRecording)
      // The state stays as the media service last said it (the control shows it); nothing else to undo.
      .catch(() => undefined)
      .finally(() => setRecordingBusy(false));
  }, [recording, recordingBusy]);

  const leave = useCallback(() => sessionRef.current?.close(), []);
  const stepOut = useCallback(async () => {
    const session = sessionRef.current;
    try {
      await session?.signalling?.request('stepOut', {});
    } finally {
      // Stepping out never gets stuck: unanswered, the connection still closes (and the room ends as on leave).
      session?.close();
    }
  }, []);

  const speakingAction = useCallback((action: (listener: SpeakerListenerLike) => Promise<void>) => {
    const listener = sessionRef.current?.speakers;
    if (!listener) return;
    action(listener).then(
      () => setSpeakingError(null),
      (cause: unknown) => setSpeakingError(refusalText(cause)),
    );
  }, []);
  const speaking: TeacherSpeaking = {
    speakers,
    tracks: Object.values(speakerTracks),
    error: speakingError,
    invite: (userId) => speakingAction((listener) => listener.invite(userId)),
    end: (userId) => speakingAction((listener) => listener.end(userId)),
  };

  const connection = error === null ? roomStatus(signallingState, mediaState) : 'failed';
  const outage = useOutage(connection, error === null);
  return {
    connection,
    outage,
    error,
    viewerCount,
    participants,
    recording,
    recordingBusy,
    toggleRecording,
    toggles,
    previews,
    ready,
    toggle,
    leave,
    stepOut,
    speaking,
  };
}

/** The media service's refusal in its own Korean words, else a general one. */
function refusalText(cause: unknown): string {
  return cause instanceof LiveRequestError ? cause.message : LIVE_TEXTS.speaking.failed;
}

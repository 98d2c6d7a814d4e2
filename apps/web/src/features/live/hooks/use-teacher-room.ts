import { useCallback, useEffect, useRef, useState } from 'react';
import type { StreamKind } from '@sea/contract/live';
import { isHttpError } from '../../../lib/http-error.ts';
import {
  useLiveServices,
  type LiveServices,
  type LiveSignalling,
  type PublisherLike,
} from '../live-services.ts';
import { LiveRequestError, type SignallingState } from '../signalling-client.ts';
import type { StreamState } from '../teacher-publisher.ts';
import { LIVE_TEXTS } from '../texts.ts';

/** The teacher's four toggles. */
export const TOGGLES = ['webcam', 'screen', 'microphone', 'systemAudio'] as const;
export type ToggleName = (typeof TOGGLES)[number];

/** The stream each toggle publishes. */
export const TOGGLE_KINDS: Record<ToggleName, StreamKind> = {
  webcam: 'webcamVideo',
  screen: 'screenShareVideo',
  microphone: 'webcamAudio',
  systemAudio: 'screenShareAudio',
};

/** A toggle's state: the publisher's stream state, or a capture step or failure before it. */
export type ToggleState = StreamState | 'capturing' | 'mediaFailed' | 'unsupported';

export type TeacherRoom = {
  connection: SignallingState;
  /** A Korean message when the room could not be opened. */
  error: string | null;
  viewerCount: number;
  toggles: Record<ToggleName, ToggleState>;
  /** Local previews: the captured webcam and screen tracks while on. */
  previews: { webcam: MediaStreamTrack | null; screen: MediaStreamTrack | null };
  /** The toggles work once the room's publisher exists. */
  ready: boolean;
  toggle: (name: ToggleName) => void;
  /** Ends the broadcast: stops the devices and closes the connection (the class stops being live). */
  leave: () => void;
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
  /** Captured tracks per toggle (all of a capture, so all are stopped when it goes off). */
  tracks: Map<ToggleName, MediaStreamTrack[]>;
  closed: boolean;
  close: () => void;
};

/** Captures what a toggle publishes; `null` when the browser gives no track of that kind (system audio). */
async function capture(
  name: ToggleName,
  services: LiveServices,
): Promise<{ track: MediaStreamTrack | null; all: MediaStreamTrack[] }> {
  let stream: MediaStream;
  if (name === 'webcam') {
    // 1280x720 or more, or the browser drops the upper simulcast layers.
    stream = await services.getUserMedia({ video: { width: { ideal: 1280 }, height: { ideal: 720 } } });
  } else if (name === 'microphone') {
    stream = await services.getUserMedia({ audio: true });
  } else if (name === 'screen') {
    stream = await services.getDisplayMedia({ video: true });
  } else {
    // Browsers capture system or tab audio only together with a display; the video part stays unused.
    stream = await services.getDisplayMedia({ video: true, audio: true });
  }
  const all = stream.getTracks();
  const wanted = name === 'webcam' || name === 'screen' ? stream.getVideoTracks() : stream.getAudioTracks();
  return { track: wanted[0] ?? null, all };
}

/**
 * The teacher's live room: on mount gets a ticket, connects and opens the room (the class becomes live), then
 * publishes or stops each of the four streams on demand. Unmounting or {@link TeacherRoom.leave} stops the
 * devices and closes everything (idempotent).
 */
export function useTeacherRoom(classId: number): TeacherRoom {
  const services = useLiveServices();
  const [connection, setConnection] = useState<SignallingState>('connecting');
  const [error, setError] = useState<string | null>(null);
  const [viewerCount, setViewerCount] = useState(0);
  const [toggles, setToggles] = useState(OFF);
  const [previews, setPreviews] = useState<TeacherRoom['previews']>({ webcam: null, screen: null });
  const [ready, setReady] = useState(false);
  const sessionRef = useRef<Session | null>(null);

  useEffect(() => {
    const unsubscribes: (() => void)[] = [];
    const session: Session = {
      signalling: null,
      publisher: null,
      tracks: new Map(),
      closed: false,
      close: () => {
        if (session.closed) return;
        session.closed = true;
        unsubscribes.forEach((unsubscribe) => unsubscribe());
        for (const tracks of session.tracks.values()) tracks.forEach((track) => track.stop());
        session.tracks.clear();
        session.publisher?.close();
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
        setConnection(signalling.state);
        unsubscribes.push(signalling.on('stateChanged', setConnection));
        const publisher = services.createPublisher(signalling);
        session.publisher = publisher;
        unsubscribes.push(
          publisher.on('viewerCount', setViewerCount),
          publisher.on('streamStateChanged', ({ kind, state }) => {
            const name = TOGGLES.find((toggle) => TOGGLE_KINDS[toggle] === kind);
            // A stream switched off by the teacher stays off even if the publisher reports late.
            if (name && (state === 'off' || session.tracks.has(name))) setToggle(name, state);
          }),
        );
        setReady(true);
        await publisher.start();
      } catch (cause) {
        if (session.closed) return;
        setConnection('failed');
        setError(
          cause instanceof LiveRequestError
            ? cause.message
            : isHttpError(cause, 418, 403)
              ? LIVE_TEXTS.noAccess
              : LIVE_TEXTS.startFailed,
        );
      }
    })();

    return () => session.close();
  }, [classId, services]);

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
        } catch {
          if (session.tracks.get(name)?.length === 0) session.tracks.delete(name);
          setToggle('mediaFailed');
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

  const leave = useCallback(() => sessionRef.current?.close(), []);

  return { connection, error, viewerCount, toggles, previews, ready, toggle, leave };
}

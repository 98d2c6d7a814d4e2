import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { PreferredLayer, StreamKind } from '@sea/contract/live';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { paths } from '../../../config/paths.ts';
import { isHttpError } from '../../../lib/http-error.ts';
import { useLiveServices, type LiveSignalling, type ViewerLike } from '../live-services.ts';
import { LiveRequestError, type SignallingState } from '../signalling-client.ts';
import { LIVE_TEXTS } from '../texts.ts';

/** After `teacherLeft`, the notice waits this long (product spec: 1 s). */
export const ENDED_NOTICE_DELAY_MS = 1_000;

export type StudentRoomError = { kind: 'notLive' | 'noAccess' | 'failed'; message: string };

export type StudentRoom = {
  connection: SignallingState;
  error: StudentRoomError | null;
  viewerCount: number;
  /** The teacher's streams being received, by kind. */
  tracks: Partial<Record<StreamKind, MediaStreamTrack>>;
  layer: PreferredLayer;
  setLayer: (layer: PreferredLayer) => void;
};

function toError(cause: unknown): StudentRoomError {
  if (cause instanceof LiveRequestError && cause.code === 'notLive') {
    return { kind: 'notLive', message: LIVE_TEXTS.notLive };
  }
  if (isHttpError(cause, 418, 403) || (cause instanceof LiveRequestError && cause.code === 'forbidden')) {
    return { kind: 'noAccess', message: LIVE_TEXTS.noAccess };
  }
  return { kind: 'failed', message: LIVE_TEXTS.joinFailed };
}

/**
 * The student's live room: on mount gets a ticket, connects and joins; keeps the teacher's streams as they
 * come and go; on `teacherLeft` disconnects, tells the student after 1 s that the lecture has ended and goes
 * to the student dashboard. Unmounting closes everything (idempotent).
 */
export function useStudentRoom(classId: number): StudentRoom {
  const services = useLiveServices();
  const notify = useNotify();
  const navigate = useNavigate();
  const [connection, setConnection] = useState<SignallingState>('connecting');
  const [error, setError] = useState<StudentRoomError | null>(null);
  const [viewerCount, setViewerCount] = useState(0);
  const [tracks, setTracks] = useState<StudentRoom['tracks']>({});
  const [layer, setLayerState] = useState<PreferredLayer>('auto');
  const viewerRef = useRef<ViewerLike | null>(null);
  // The latest notify/navigate without restarting the connection when their identity changes.
  const afterEnd = useRef(() => {});
  afterEnd.current = () => {
    notify(LIVE_TEXTS.ended, { tone: 'info' });
    void navigate(paths.dashboardStudent.to(classId));
  };

  useEffect(() => {
    const unsubscribes: (() => void)[] = [];
    let signalling: LiveSignalling | null = null;
    let viewer: ViewerLike | null = null;
    let endTimer: ReturnType<typeof setTimeout> | undefined;
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      unsubscribes.forEach((unsubscribe) => unsubscribe());
      viewer?.close();
      signalling?.close();
      viewerRef.current = null;
    };

    void (async () => {
      try {
        signalling = await services.connect(classId);
        if (closed) {
          signalling.close();
          return;
        }
        setConnection(signalling.state);
        unsubscribes.push(signalling.on('stateChanged', setConnection));
        viewer = services.createViewer(signalling);
        viewerRef.current = viewer;
        unsubscribes.push(
          viewer.on('viewerCount', setViewerCount),
          viewer.on('trackAdded', ({ kind, track }) =>
            setTracks((current) => ({ ...current, [kind]: track })),
          ),
          viewer.on('trackRemoved', ({ kind }) =>
            setTracks((current) => {
              const next = { ...current };
              delete next[kind];
              return next;
            }),
          ),
          viewer.on('ended', () => {
            close();
            setConnection('disconnected');
            setTracks({});
            endTimer = setTimeout(() => afterEnd.current(), ENDED_NOTICE_DELAY_MS);
          }),
        );
        await viewer.join();
      } catch (cause) {
        if (closed) return;
        close();
        setError(toError(cause));
        setConnection(cause instanceof LiveRequestError ? 'disconnected' : 'failed');
      }
    })();

    return () => {
      clearTimeout(endTimer);
      close();
    };
  }, [classId, services]);

  const setLayer = useCallback((next: PreferredLayer) => {
    setLayerState(next);
    void viewerRef.current?.setLayer(next).catch(() => undefined);
  }, []);

  return { connection, error, viewerCount, tracks, layer, setLayer };
}

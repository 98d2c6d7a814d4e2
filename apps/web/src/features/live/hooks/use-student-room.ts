import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { PreferredLayer, RecordingState, Speaker, StreamKind } from '@sea/contract/live';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { paths } from '../../../config/paths.ts';
import { isHttpError } from '../../../lib/http-error.ts';
import { readDataSaving, storeDataSaving } from '../data-saving.ts';
import type { MediaState } from '../live-client.ts';
import { useLiveServices, type LiveSignalling, type SpeakerLike, type ViewerLike } from '../live-services.ts';
import type { SpeakingPhase } from '../student-speaker.ts';
import type { RoomFailure } from '../room-failure.ts';
import { roomStatus, type RoomStatus } from '../room-status.ts';
import type { SignallingState } from '../signalling-client.ts';
import { LIVE_TEXTS } from '../texts.ts';
import { useOutage, type Outage } from './use-outage.ts';
import { useRoomFailure } from './use-room-failure.ts';

/** After `teacherLeft`, the notice waits this long (product spec: 1 s). */
export const ENDED_NOTICE_DELAY_MS = 1_000;

/** Why the room could not be entered, shown in the room (the other refusals leave it, see useRoomFailure). */
export type StudentRoomError = Pick<RoomFailure, 'kind' | 'message'>;

export type StudentRoom = {
  /** The room's status: the signalling connection, and once it is up, the media side (see roomStatus). */
  connection: RoomStatus;
  /** While the connection is lost after the room was entered: for how long (see useOutage); null otherwise. */
  outage: Outage | null;
  error: StudentRoomError | null;
  viewerCount: number;
  /** Whether the lecture is recorded (and paused), as the media service says; null until it has. */
  recording: RecordingState | null;
  /** The teacher's streams being received, by kind. */
  tracks: Partial<Record<StreamKind, MediaStreamTrack>>;
  /** The quality the student chose (in data saving the webcam comes at the smallest layer whatever it is). */
  layer: PreferredLayer;
  setLayer: (layer: PreferredLayer) => void;
  /** '데이터 절약 모드' (remembered on this device): see StudentViewer. */
  dataSaving: boolean;
  setDataSaving: (on: boolean) => void;
  speaking: StudentSpeaking;
};

/** Speaking at the teacher's invitation, as the student's room shows it. */
export type StudentSpeaking = {
  phase: SpeakingPhase;
  /** Who is invited or speaking in the room (this student included). */
  speakers: Speaker[];
  /** The other speakers' microphones being received (one audio element each). */
  tracks: MediaStreamTrack[];
  /** Why speaking could not start (the microphone refused...), in Korean; cleared by the next invitation. */
  error: string | null;
  accept: () => void;
  decline: () => void;
  end: () => void;
};

/**
 * The student's live room: on mount gets a ticket, connects and joins; keeps the teacher's streams as they
 * come and go; on `teacherLeft` disconnects, tells the student after 1 s that the lecture has ended and goes
 * to the student dashboard. A refused entry goes where useRoomFailure says, or stays with a message (the class
 * is not live yet, the server cannot be reached). Unmounting closes everything (idempotent).
 * `materialOnStage`: whether the teacher has a material on the board's stage (data saving then holds back the
 * screen share's video).
 */
export function useStudentRoom(classId: number, materialOnStage = false): StudentRoom {
  const services = useLiveServices();
  const notify = useNotify();
  const navigate = useNavigate();
  const fail = useRoomFailure('student', classId);
  const [signallingState, setSignallingState] = useState<SignallingState>('connecting');
  const [mediaState, setMediaState] = useState<MediaState>('connecting');
  const [error, setError] = useState<StudentRoomError | null>(null);
  const [ended, setEnded] = useState(false);
  const [viewerCount, setViewerCount] = useState(0);
  const [recording, setRecording] = useState<RecordingState | null>(null);
  const [tracks, setTracks] = useState<StudentRoom['tracks']>({});
  const [layer, setLayerState] = useState<PreferredLayer>('auto');
  const [dataSaving, setDataSavingState] = useState(readDataSaving);
  // What a viewer made later (a new connection) starts with.
  const dataSavingRef = useRef(dataSaving);
  const materialOnStageRef = useRef(materialOnStage);
  const viewerRef = useRef<ViewerLike | null>(null);
  const speakerRef = useRef<SpeakerLike | null>(null);
  const [phase, setPhase] = useState<SpeakingPhase>('idle');
  const [speakers, setSpeakers] = useState<Speaker[]>([]);
  const [speakerTracks, setSpeakerTracks] = useState<Record<string, MediaStreamTrack>>({});
  const [speakingError, setSpeakingError] = useState<string | null>(null);
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
    let speaker: SpeakerLike | null = null;
    let endTimer: ReturnType<typeof setTimeout> | undefined;
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      unsubscribes.forEach((unsubscribe) => unsubscribe());
      viewer?.close();
      speaker?.close();
      signalling?.close();
      viewerRef.current = null;
      speakerRef.current = null;
    };

    void (async () => {
      try {
        signalling = await services.connect(classId);
        if (closed) {
          signalling.close();
          return;
        }
        setSignallingState(signalling.state);
        unsubscribes.push(signalling.on('stateChanged', setSignallingState));
        viewer = services.createViewer(signalling);
        viewerRef.current = viewer;
        void viewer.setDataSaving(dataSavingRef.current).catch(() => undefined);
        void viewer.setMaterialOnStage(materialOnStageRef.current).catch(() => undefined);
        speaker = services.createSpeaker(signalling);
        speakerRef.current = speaker;
        unsubscribes.push(
          speaker.on('phaseChanged', (next) => {
            setPhase(next);
            if (next === 'invited') setSpeakingError(null);
          }),
          speaker.on('speakersChanged', setSpeakers),
          speaker.on('failed', setSpeakingError),
          viewer.on('speakerTrackAdded', ({ producerId, track }) =>
            setSpeakerTracks((current) => ({ ...current, [producerId]: track })),
          ),
          viewer.on('speakerTrackRemoved', ({ producerId }) =>
            setSpeakerTracks((current) => {
              const next = { ...current };
              delete next[producerId];
              return next;
            }),
          ),
        );
        setMediaState(viewer.mediaState);
        unsubscribes.push(
          viewer.on('mediaStateChanged', setMediaState),
          viewer.on('viewerCount', setViewerCount),
          viewer.on('recordingState', setRecording),
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
            setEnded(true);
            setSignallingState('disconnected');
            setTracks({});
            setSpeakerTracks({});
            setPhase('idle');
            endTimer = setTimeout(() => afterEnd.current(), ENDED_NOTICE_DELAY_MS);
          }),
        );
        await viewer.join();
      } catch (cause) {
        // A refused token refresh logs out at once, and the route guard may leave the room before this answer
        // arrives: the notice and the login are still due.
        if (closed && !isHttpError(cause, 401)) return;
        close();
        const failure = fail(cause);
        if (failure.to !== null) return;
        setError({ kind: failure.kind, message: failure.message });
        setSignallingState(failure.kind === 'notLive' ? 'disconnected' : 'failed');
      }
    })();

    return () => {
      clearTimeout(endTimer);
      close();
    };
  }, [classId, services, fail]);

  const setLayer = useCallback((next: PreferredLayer) => {
    setLayerState(next);
    void viewerRef.current?.setLayer(next).catch(() => undefined);
  }, []);

  const setDataSaving = useCallback((on: boolean) => {
    setDataSavingState(on);
    storeDataSaving(on);
    dataSavingRef.current = on;
    void viewerRef.current?.setDataSaving(on).catch(() => undefined);
  }, []);

  useEffect(() => {
    if (materialOnStageRef.current === materialOnStage) return;
    materialOnStageRef.current = materialOnStage;
    void viewerRef.current?.setMaterialOnStage(materialOnStage).catch(() => undefined);
  }, [materialOnStage]);

  const speaking: StudentSpeaking = {
    phase,
    speakers,
    tracks: Object.values(speakerTracks),
    error: speakingError,
    accept: () => void speakerRef.current?.accept(),
    decline: () => void speakerRef.current?.decline(),
    end: () => void speakerRef.current?.end(),
  };
  const connection = roomStatus(signallingState, mediaState);
  const outage = useOutage(connection, error === null && !ended);
  return {
    connection,
    outage,
    error,
    viewerCount,
    recording,
    tracks,
    layer,
    setLayer,
    dataSaving,
    setDataSaving,
    speaking,
  };
}

import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import type { ChatMessage } from '@sea/contract/chat';
import type { Poll, Question, RaisedHand } from '@sea/contract/classroom';
import { LiveRoomPanel } from '../live-room-panel.tsx';
import type { RoomParticipant } from '../../features/classroom/components/participants-panel.tsx';
import { RoomConnection } from '../../lib/realtime/room-connection.ts';
import { chatMessage, fakeStompFactory } from '../../testing/fake-stomp.ts';
import { envelope, mockFetch } from '../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../testing/render.tsx';

export const CLASS_ID = 7;

/** What the server of class 7 holds for the side panel; tests change it before (re)reads. */
export type RoomData = { history: ChatMessage[]; questions: Question[]; hands: RaisedHand[]; polls: Poll[] };

/**
 * Stubs the panel's HTTP reads (me, questions, polls, hands) on `data`, made a fresh room: three messages (the teacher's,
 * a withdrawn writer's and my own), nothing else.
 */
function mockRoomServer(data: RoomData): void {
  Object.assign(data, {
    questions: [],
    hands: [],
    polls: [],
    history: [
      chatMessage({
        id: 1,
        writer: '고래선생',
        writer_id: 'teacher',
        role: 'teacher',
        content: '안녕하세요',
      }),
      chatMessage({ id: 2, writer: null, writer_id: null, content: '탈퇴한 사람의 말' }),
      chatMessage({
        id: 3,
        writer: '나',
        writer_id: 'me',
        content: '제 메시지예요',
        profile_image_path: '/uploads/avatars/me.png',
      }),
    ],
  });
  localStorage.setItem('accessToken', 'token');
  mockFetch([
    {
      url: '/api/users',
      respond: () => ({
        body: envelope({ id: 'me', nickname: '나', email: null, profile_image_path: null }),
      }),
    },
    {
      url: '/api/classes/7/questions',
      respond: () => ({ body: envelope({ sessionId: 1, questions: data.questions }) }),
    },
    { url: '/api/classes/7/polls', respond: () => ({ body: envelope({ sessionId: 1, polls: data.polls }) }) },
    {
      url: '/api/classes/7/hands',
      respond: () => ({
        body: envelope({ roomId: 7, count: data.hands.length, raised: false, queue: data.hands }),
      }),
    },
  ]);
}

/** The room's data of a test file, made afresh (and its reads stubbed) before each test; the same object throughout. */
export function roomServerPerTest(): RoomData {
  const data: RoomData = { history: [], questions: [], hands: [], polls: [] };
  beforeEach(() => {
    mockRoomServer(data);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });
  return data;
}

/** The live rooms' side panel over fake STOMP clients, reading the history from `data`. */
export function renderPanel(
  data: RoomData,
  role: 'teacher' | 'student' = 'student',
  reconnectDelayMs = 5_000,
  participants?: readonly RoomParticipant[],
) {
  const stomp = fakeStompFactory();
  const createConnection = (classId: number) =>
    new RoomConnection({
      classId,
      url: 'ws://127.0.0.1:1/ws',
      getToken: () => 'token',
      fetchHistory: async (_classId, after) =>
        after === undefined ? data.history : data.history.filter((message) => message.id > after),
      createClient: stomp.factory,
      reconnectDelayMs,
    });
  renderWithProviders(
    <LiveRoomPanel
      classId={CLASS_ID}
      role={role}
      createConnection={createConnection}
      participants={participants}
    />,
  );
  return { stomp };
}

/** Connects the panel's client and waits for the history. */
export async function connect(stomp: ReturnType<typeof fakeStompFactory>): Promise<void> {
  await waitFor(() => expect(stomp.clients.length).toBeGreaterThan(0));
  await act(async () => stomp.last().connectAndConfirm());
  await screen.findByText('안녕하세요');
}

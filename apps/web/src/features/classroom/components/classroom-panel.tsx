import { useState, type ReactNode } from 'react';
import type { ChatMessage, RoomRole } from '@sea/contract/chat';
import { CHAT_SLOW_DESTINATION } from '@sea/contract/classroom';
import frame from '../../../components/ui/side-panel.module.css';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { useCurrentUser } from '../../../lib/current-user.ts';
import { formatCountdown } from '../../../lib/format-date-time.ts';
import type { RoomView } from '../../../lib/realtime/use-room-connection.ts';
import {
  messageModeration,
  muteStudent,
  type ModerationActions,
  type MuteTarget,
} from '../message-moderation.ts';
import { CLASSROOM_TEXTS as T } from '../texts.ts';
import { useHands } from '../use-hands.ts';
import { useModerationState } from '../use-moderation-state.ts';
import { usePolls } from '../use-polls.ts';
import { useQuestions } from '../use-questions.ts';
import { useReactions } from '../use-reactions.ts';
import { ClassroomTabs, type ClassroomTab } from './classroom-tabs.tsx';
import { HandsBar, type HandsBarProps } from './hands-bar.tsx';
import { MuteDialog } from './mute-dialog.tsx';
import { MutedList } from './muted-list.tsx';
import { ParticipantsPanel, type RoomParticipant } from './participants-panel.tsx';
import { PollsPanel } from './polls-panel.tsx';
import { QuestionsPanel } from './questions-panel.tsx';
import { ReactionBar } from './reaction-bar.tsx';
import { SlowModeSelect } from './slow-mode-select.tsx';
import styles from './classroom-panel.module.css';
import classroom from './classroom.module.css';

/** What the panel gives the chat tab: the teacher's actions on a message, and what goes under the messages. */
export type ChatSlot = {
  actionsFor: ((message: ChatMessage) => ModerationActions) | undefined;
  footer: ReactNode;
  /** Why the reader may not write now (a mute, with its countdown), or null. */
  blocked: string | null;
};

export type ClassroomPanelProps = {
  classId: number;
  /** The reader's role in the room: the teacher gets the moderation tools and the hands queue. */
  role?: RoomRole;
  /** The room's open connection, shared with the chat. */
  room: RoomView;
  /** The chat tab's content (the chat feature's panel). */
  chat: (slot: ChatSlot) => ReactNode;
  /** The teacher's extra control beside each raised hand (the live room's '발언 요청'). */
  handAction?: HandsBarProps['handAction'];
  /** The teacher's: the students in the room now, for the '참여자' tab (none: no such tab). */
  participants?: readonly RoomParticipant[];
};

/** The nickname each writer last wrote under, from the room's messages (the muted list names them by it). */
function writerNames(messages: readonly ChatMessage[]): Record<string, string> {
  const names: Record<string, string> = {};
  for (const message of messages) {
    if (message.writer_id !== null && message.writer?.trim()) names[message.writer_id] = message.writer;
  }
  return names;
}

/**
 * The side panel of the live rooms: the chat with the '질문' and '투표' tabs beside it, raised hands above
 * them and reactions below; for the teacher, the '참여자' tab (given the room's students) and the moderation
 * tools (delete, mute with its length and the list of muted students, slow mode); a muted student sees the
 * time left and cannot write until it runs out.
 */
export function ClassroomPanel({
  classId,
  role = 'student',
  room,
  chat,
  handAction,
  participants,
}: ClassroomPanelProps) {
  const { state, refusal, connection } = room;
  const questions = useQuestions(connection, classId);
  const hands = useHands(connection, classId);
  const polls = usePolls(connection, classId);
  const reactions = useReactions(connection, classId);
  const me = useCurrentUser().data?.id ?? null;
  const { slowSeconds, mutedUntil, mutes, now } = useModerationState(connection, me);
  const [tab, setTab] = useState<ClassroomTab>('chat');
  const [muting, setMuting] = useState<MuteTarget | null>(null);
  const notify = useNotify();
  const mutedLeft = mutedUntil === null ? null : formatCountdown((Date.parse(mutedUntil) - now) / 1000);
  const teacher = role === 'teacher';
  const offline = state !== 'connected';
  const footer = (
    <>
      {refusal && (
        <p className={styles.refusal} role="alert">
          {refusal.message}
        </p>
      )}
      <ReactionBar view={reactions} role={role} disabled={offline} />
    </>
  );

  return (
    <section className={frame.panel} aria-label={T.chatTab}>
      <header className={frame.header}>
        <h2 className="visually-hidden">{T.chatTab}</h2>
        <ClassroomTabs
          tab={tab}
          onChange={setTab}
          questions={questions.questions.length}
          polls={polls.polls.length}
          participants={participants?.length}
        />
        <span className={frame.status} data-state={state} role="status">
          {T.connectionStates[state]}
        </span>
      </header>
      <HandsBar controls={hands} role={role} disabled={offline} handAction={handAction} />
      {tab === 'questions' && <QuestionsPanel view={questions} role={role} disabled={offline} />}
      {tab === 'polls' && <PollsPanel view={polls} role={role} disabled={offline} />}
      {tab === 'participants' && participants !== undefined && (
        <ParticipantsPanel participants={participants} hands={hands.hands.queue} mutes={mutes} now={now} />
      )}
      {tab === 'chat' ? (
        <>
          {teacher && (
            <div className={classroom.tools}>
              <SlowModeSelect
                seconds={slowSeconds}
                disabled={offline}
                onChange={(seconds) => connection?.publish(CHAT_SLOW_DESTINATION, { seconds })}
              />
            </div>
          )}
          {teacher && (
            <MutedList
              mutes={mutes}
              names={writerNames(room.messages)}
              now={now}
              disabled={offline}
              onLift={(userId) => muteStudent(connection, userId, 0)}
            />
          )}
          {!teacher && slowSeconds > 0 && <p className={classroom.notice}>{T.slowModeOn(slowSeconds)}</p>}
          {!teacher && mutedLeft !== null && (
            <p className={classroom.notice} role="status">
              {T.mutedFor(mutedLeft)}
            </p>
          )}
          {chat({
            actionsFor: messageModeration(connection, role, setMuting, (undo, forMs) =>
              notify(T.deleteScheduled, { durationMs: forMs, action: { label: T.undoDelete, run: undo } }),
            ),
            footer,
            blocked: mutedLeft === null ? null : T.mutedPlaceholder(mutedLeft),
          })}
          {teacher && (
            <MuteDialog
              target={muting}
              onClose={() => setMuting(null)}
              onMute={(target, minutes) => muteStudent(connection, target.userId, minutes)}
            />
          )}
        </>
      ) : (
        footer
      )}
    </section>
  );
}

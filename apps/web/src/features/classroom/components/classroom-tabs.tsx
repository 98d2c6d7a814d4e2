import { CLASSROOM_TEXTS as T } from '../texts.ts';
import styles from './classroom-panel.module.css';

/** The side panel's tabs: the chat, the questions, the polls and (the teacher's) the participants. */
export type ClassroomTab = 'chat' | 'questions' | 'polls' | 'participants';

export type ClassroomTabsProps = {
  tab: ClassroomTab;
  onChange: (tab: ClassroomTab) => void;
  questions: number;
  polls: number;
  /** The students in the room, for the teacher's '참여자' tab; without it, no such tab. */
  participants?: number;
};

/** The tab list of the side panel, with the number of questions, polls (and participants) in their tabs. */
export function ClassroomTabs({ tab, onChange, questions, polls, participants }: ClassroomTabsProps) {
  const labels: Partial<Record<ClassroomTab, string>> = {
    chat: T.chatTab,
    questions: T.questionsTab(questions),
    polls: T.pollsTab(polls),
    ...(participants === undefined ? {} : { participants: T.participantsTab(participants) }),
  };
  return (
    <div className={styles.tabs} role="tablist" aria-label={T.tabsLabel}>
      {(Object.keys(labels) as ClassroomTab[]).map((name) => (
        <button
          key={name}
          type="button"
          role="tab"
          className={styles.tab}
          aria-selected={tab === name}
          onClick={() => onChange(name)}
        >
          {labels[name]}
        </button>
      ))}
    </div>
  );
}

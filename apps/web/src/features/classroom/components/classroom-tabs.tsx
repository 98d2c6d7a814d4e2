import { CLASSROOM_TEXTS as T } from '../texts.ts';
import styles from './classroom-panel.module.css';

/** The side panel's tabs: the chat, the questions and the polls. */
export type ClassroomTab = 'chat' | 'questions' | 'polls';

export type ClassroomTabsProps = {
  tab: ClassroomTab;
  onChange: (tab: ClassroomTab) => void;
  questions: number;
  polls: number;
};

/** The tab list of the side panel, with the number of questions and polls in their tabs. */
export function ClassroomTabs({ tab, onChange, questions, polls }: ClassroomTabsProps) {
  const labels: Record<ClassroomTab, string> = {
    chat: T.chatTab,
    questions: T.questionsTab(questions),
    polls: T.pollsTab(polls),
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

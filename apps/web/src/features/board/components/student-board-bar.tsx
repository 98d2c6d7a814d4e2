import { Button } from '../../../components/ui/button.tsx';
import { BOARD_TEXTS as T } from '../texts.ts';
import type { StudentBoard } from '../use-student-board.ts';
import { BoardToolbar } from './board-toolbar.tsx';
import { PageNavigation } from './page-navigation.tsx';
import styles from './presenter.module.css';

/**
 * Under the student's stage while a material is on it: the page and the way to leaf through it, '선생님 화면
 * 따라가기' while on a page of one's own, and the tools when the teacher let this student write.
 */
export function StudentBoardBar({ board }: { board: StudentBoard }) {
  if (!board.page) return null;
  return (
    <section className={styles.panel} aria-label={T.canvas}>
      <div className={styles.row}>
        <PageNavigation page={board.page.page} count={board.pageCount} onGo={board.go} />
        {!board.following && (
          <>
            <span className={styles.notice}>{T.leafing}</span>
            <Button size="sm" onClick={board.follow}>
              {T.follow}
            </Button>
          </>
        )}
      </div>
      {board.toolbar && (
        <>
          <p className={styles.notice}>{T.writeAllowed}</p>
          <BoardToolbar {...board.toolbar} />
        </>
      )}
    </section>
  );
}

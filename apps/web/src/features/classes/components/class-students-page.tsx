import { Avatar } from '../../../components/ui/avatar.tsx';
import { Breadcrumb } from '../../../components/ui/breadcrumb.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { RetryButton } from '../../../components/ui/load-failed.tsx';
import { Page } from '../../../components/ui/page.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { useClassStudents } from '../api/get-class-students.ts';
import { formatAppliedDate } from '../format-applied-date.ts';
import { useClassId } from '../use-class-id.ts';
import { CLASS_TEXTS } from '../texts.ts';
import styles from './class-students-page.module.css';

const texts = CLASS_TEXTS.students;

/**
 * `/lecture/students/{classId}` (teacher): No., picture (one of three defaults when missing or broken),
 * nickname, e-mail and the enrolment date in Korean.
 */
export function ClassStudentsPage() {
  const classId = useClassId();
  const query = useClassStudents(classId);

  let content;
  if (query.isPending) content = <Spinner label={texts.loading} />;
  else if (query.isError) {
    content = (
      <p role="alert" className={styles.error}>
        {texts.loadFailed} <RetryButton onRetry={() => void query.refetch()} />
      </p>
    );
  } else if (query.data.length === 0) content = <EmptyState message={texts.empty} />;
  else {
    content = (
      // Focusable so a keyboard can scroll the table sideways on narrow screens.
      <div className={styles.scroller} role="region" aria-label={texts.title} tabIndex={0}>
        <table className={styles.table}>
          <caption className={styles.count}>{texts.count(query.data.length)}</caption>
          <thead>
            <tr>
              <th scope="col">{texts.number}</th>
              <th scope="col">{texts.picture}</th>
              <th scope="col">{texts.nickname}</th>
              <th scope="col">{texts.email}</th>
              <th scope="col">{texts.appliedAt}</th>
            </tr>
          </thead>
          <tbody>
            {query.data.map((student, index) => (
              <tr key={student.id}>
                <td>{index + 1}</td>
                <td>
                  <Avatar name={student.nickname} src={student.profile_image_path} set="chat" size={36} />
                </td>
                <td>{student.nickname}</td>
                <td className={student.email ? undefined : styles.muted}>{student.email || texts.noEmail}</td>
                <td>
                  <time dateTime={student.created_at}>{formatAppliedDate(student.created_at)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }

  return (
    <Page>
      <Breadcrumb
        items={[
          { label: CLASS_TEXTS.home, to: paths.home.to() },
          { label: CLASS_TEXTS.dashboard.teacherTitle, to: paths.dashboardTeacher.to(classId) },
          { label: texts.title },
        ]}
      />
      <h1 className={styles.title}>{texts.title}</h1>
      {content}
    </Page>
  );
}

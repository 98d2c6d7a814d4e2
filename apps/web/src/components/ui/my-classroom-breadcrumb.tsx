import { paths } from '../../config/paths.ts';
import { Breadcrumb, type BreadcrumbItem } from './breadcrumb.tsx';
import { UI_TEXTS } from './texts.ts';

/** The trail of a page under my classroom: '홈 › 내 강의실 ›' and then `items`, the last one this page. */
export function MyClassroomBreadcrumb({ items }: { items: readonly BreadcrumbItem[] }) {
  return (
    <Breadcrumb
      items={[
        { label: UI_TEXTS.home, to: paths.home.to() },
        { label: UI_TEXTS.myClassroom, to: paths.mypage.to() },
        ...items,
      ]}
    />
  );
}

import { useNavigate } from 'react-router';
import { ConfirmDangerButton } from '../../../components/ui/confirm-danger-button.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { paths } from '../../../config/paths.ts';
import { useDeleteClass } from '../../../lib/use-delete-class.ts';
import { CLASS_TEXTS } from '../texts.ts';

const texts = CLASS_TEXTS.dashboard;

/**
 * 'Delete class' with its confirmation. Deleted: the notice, then my page. Failed: the catalogue's text.
 * The confirmation closes either way.
 */
export function DeleteClassButton({ classId }: { classId: number }) {
  const navigate = useNavigate();
  const notify = useNotify();
  const removal = useDeleteClass();
  return (
    <ConfirmDangerButton
      ask={{ title: texts.deleteTitle, body: texts.deleteBody, confirmLabel: texts.deleteConfirm }}
      busy={removal.isPending}
      onConfirm={(close) =>
        removal.mutate(classId, {
          onSuccess: () => {
            notify(texts.deleted, { tone: 'success' });
            navigate(paths.mypage.to(), { replace: true });
          },
          onError: () => notify(texts.deleteFailed, { tone: 'error' }),
          onSettled: close,
        })
      }
    >
      {texts.deleteClass}
    </ConfirmDangerButton>
  );
}

import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
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
  const [open, setOpen] = useState(false);
  const removal = useDeleteClass();
  return (
    <>
      <Button variant="danger" onClick={() => setOpen(true)}>
        {texts.deleteClass}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={texts.deleteTitle}
        body={texts.deleteBody}
        confirmLabel={texts.deleteConfirm}
        confirmVariant="danger"
        busy={removal.isPending}
        onConfirm={() =>
          removal.mutate(classId, {
            onSuccess: () => {
              notify(texts.deleted, { tone: 'success' });
              navigate(paths.mypage.to(), { replace: true });
            },
            onError: () => notify(texts.deleteFailed, { tone: 'error' }),
            onSettled: () => setOpen(false),
          })
        }
      />
    </>
  );
}

import { ImagePicker } from '../../../components/ui/image-picker.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { CLASS_TEXTS } from '../texts.ts';

const texts = CLASS_TEXTS.form;

/** The class forms' banner field: the image picker with the banner's label, notes and rejection notice. */
export function BannerPicker({
  file,
  onChange,
  progress,
  disabled,
  currentUrl,
}: {
  file: File | null;
  onChange: (file: File | null) => void;
  progress: number | null;
  disabled: boolean;
  /** The saved banner (edit form). */
  currentUrl?: string;
}) {
  const notify = useNotify();
  return (
    <ImagePicker
      label={texts.banner}
      file={file}
      onChange={onChange}
      onReject={() => notify(texts.bannerInvalid, { tone: 'error' })}
      {...(currentUrl === undefined ? {} : { currentUrl })}
      notes={texts.bannerNotes}
      progress={progress}
      disabled={disabled}
    />
  );
}

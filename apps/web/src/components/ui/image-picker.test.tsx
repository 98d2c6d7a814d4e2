import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ImagePicker } from './image-picker.tsx';

function Harness({
  onReject,
  progress = null,
}: {
  onReject: (file: File) => void;
  progress?: number | null;
}) {
  const [file, setFile] = useState<File | null>(null);
  return (
    <ImagePicker
      label="배너 이미지"
      file={file}
      onChange={setFile}
      onReject={onReject}
      onDelete={() => undefined}
      progress={progress}
    />
  );
}

describe('ImagePicker', () => {
  it('previews an accepted image and clears it with delete', async () => {
    const createObjectURL = vi.fn(() => 'blob:preview');
    const revokeObjectURL = vi.fn();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    render(<Harness onReject={() => undefined} />);
    fireEvent.change(screen.getByLabelText('배너 이미지'), {
      target: { files: [new File(['png'], 'a.png', { type: 'image/png' })] },
    });
    expect(screen.getByRole('img', { name: '선택한 이미지 미리보기' })).toHaveAttribute(
      'src',
      'blob:preview',
    );
    await userEvent.click(screen.getByRole('button', { name: '삭제' }));
    expect(screen.queryByRole('img', { name: '선택한 이미지 미리보기' })).not.toBeInTheDocument();
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:preview');
  });

  it('rejects files over 5 MB or of another type and keeps nothing selected', () => {
    const onReject = vi.fn();
    render(<Harness onReject={onReject} />);
    const big = new File([new Uint8Array(5_242_881)], 'big.jpg', { type: 'image/jpeg' });
    fireEvent.change(screen.getByLabelText('배너 이미지'), { target: { files: [big] } });
    fireEvent.change(screen.getByLabelText('배너 이미지'), {
      target: { files: [new File(['gif'], 'a.gif', { type: 'image/gif' })] },
    });
    expect(onReject).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });

  it('shows upload progress as a progress bar', () => {
    render(<Harness onReject={() => undefined} progress={0.42} />);
    expect(screen.getByRole('progressbar', { name: '업로드 진행률' })).toHaveAttribute('aria-valuenow', '42');
  });
});

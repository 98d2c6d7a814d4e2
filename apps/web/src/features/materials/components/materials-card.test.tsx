import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Material } from '@sea/contract/materials';
import { envelope, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signedInPerTest } from '../../../testing/signed-in.ts';
import { MaterialsCard } from './materials-card.tsx';

const material = (id: number, extra: Partial<Material> = {}): Material => ({
  id,
  class_id: 7,
  name: `자료 ${id}`,
  kind: 'pdf',
  state: 'ready',
  progress: 100,
  pages: 3,
  downloadable: false,
  error: null,
  download_url: `/api/materials/${id}/files/original.pdf?exp=1&sig=x`,
  created_at: '2026-12-01T00:00:00.000Z',
  ...extra,
});

function renderCard(role: 'teacher' | 'student', items: Material[]) {
  let current = items;
  const fetchMock = mockFetch([
    { url: '/api/classes/7/materials', respond: () => ({ body: envelope(current) }) },
    {
      method: 'PATCH',
      url: /^\/api\/classes\/7\/materials\/\d+$/,
      respond: async (request) => {
        const id = Number(new URL(request.url).pathname.split('/').at(-1));
        const patch = (await request.json()) as Partial<Material>;
        current = current.map((item) => (item.id === id ? { ...item, ...patch } : item));
        return { body: envelope(current.find((item) => item.id === id)) };
      },
    },
    {
      method: 'DELETE',
      url: /^\/api\/classes\/7\/materials\/\d+$/,
      respond: (request) => {
        const id = Number(new URL(request.url).pathname.split('/').at(-1));
        current = current.filter((item) => item.id !== id);
        return { body: envelope(null) };
      },
    },
  ]);
  renderWithProviders(<MaterialsCard classId={7} role={role} />);
  return fetchMock;
}

const row = (name: string): HTMLElement => {
  const item = screen.getByText(name).closest('li');
  if (!item) throw new Error(`no row for ${name}`);
  return item;
};

signedInPerTest();

describe('materials card', { timeout: 15_000 }, () => {
  it('shows the teacher each state: the conversion progress, the pages, why one failed', async () => {
    renderCard('teacher', [
      material(3, { state: 'converting', progress: 40, pages: 0, download_url: null }),
      material(2),
      material(1, {
        state: 'failed',
        progress: 0,
        error: '암호가 걸린 PDF는 올릴 수 없어요.',
        download_url: null,
      }),
    ]);
    await screen.findByText('자료 3');
    expect(within(row('자료 3')).getByRole('progressbar', { name: '변환 진행률' })).toHaveAttribute(
      'aria-valuenow',
      '40',
    );
    expect(within(row('자료 2')).getByText('PDF · 3쪽')).toBeInTheDocument();
    expect(within(row('자료 1')).getByRole('alert')).toHaveTextContent('암호가 걸린 PDF는 올릴 수 없어요.');
    expect(screen.getByRole('button', { name: '자료 올리기' })).toBeInTheDocument();
  });

  it('refuses a file of another kind before sending it', async () => {
    const { calls } = renderCard('teacher', []);
    await screen.findByText('아직 올린 자료가 없어요.');
    const input = screen.getByLabelText('자료 올리기', { selector: 'input' });
    await userEvent.upload(input, new File(['x'], '사진.png', { type: 'image/png' }), { applyAccept: false });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'PDF, PPTX, PPT, ODP, DOCX 파일만 올릴 수 있어요.',
    );
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it('lets the teacher rename, allow the download and delete after asking', async () => {
    const { calls } = renderCard('teacher', [material(2)]);
    await screen.findByText('자료 2');
    await userEvent.click(within(row('자료 2')).getByRole('button', { name: '이름 바꾸기' }));
    const field = screen.getByRole('textbox', { name: '자료 이름' });
    await userEvent.clear(field);
    await userEvent.type(field, '파도의 원리');
    await userEvent.click(screen.getByRole('button', { name: '저장' }));
    expect(await screen.findByText('파도의 원리')).toBeInTheDocument();
    await userEvent.click(within(row('파도의 원리')).getByRole('checkbox', { name: '학생 다운로드 허용' }));
    const patches = await Promise.all(
      calls.filter((call) => call.method === 'PATCH').map((call) => call.json() as Promise<unknown>),
    );
    expect(patches).toEqual([{ name: '파도의 원리' }, { downloadable: true }]);
    await userEvent.click(within(row('파도의 원리')).getByRole('button', { name: '삭제' }));
    const dialog = await screen.findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: '삭제' }));
    expect(await screen.findByText('아직 올린 자료가 없어요.')).toBeInTheDocument();
  });

  it('shows students the ready materials and the download the teacher allows, nothing to change', async () => {
    renderCard('student', [
      material(3, { state: 'converting', progress: 10, download_url: null }),
      material(2, { downloadable: true }),
      material(1, { download_url: null }),
    ]);
    await screen.findByText('자료 2');
    expect(screen.queryByText('자료 3')).not.toBeInTheDocument();
    expect(within(row('자료 2')).getByRole('link', { name: '내려받기' })).toHaveAttribute(
      'href',
      expect.stringContaining('/files/'),
    );
    expect(within(row('자료 1')).queryByRole('link')).not.toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});

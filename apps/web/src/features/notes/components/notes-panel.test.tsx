import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Note } from '@sea/contract/notes';
import { envelope, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signedInPerTest } from '../../../testing/signed-in.ts';
import { NotesPanel } from './notes-panel.tsx';

const note = (id: number, offset: number, content: string): Note => ({
  id,
  session_id: 4,
  offset_ms: offset,
  content,
  created_at: '2026-12-01T00:00:00.000Z',
  updated_at: '2026-12-01T00:00:00.000Z',
});

function serve() {
  let notes = [
    note(1, 754_000, '여기 시험에 나옴\n[정리](https://example.com/a) 와 https://example.com/b.'),
    note(2, 800_000, '**굵게** <img src=x onerror=alert(1)> [몰래](javascript:alert(1))'),
  ];
  const url = '/api/classes/7/sessions/4/notes';
  return mockFetch([
    { url, respond: () => ({ body: envelope(notes) }) },
    {
      method: 'POST',
      url,
      respond: async (request) => {
        const body = (await request.json()) as { offset_ms: number; content: string };
        const added = note(3, body.offset_ms, body.content);
        notes = [...notes, added];
        return { body: envelope(added) };
      },
    },
    {
      method: 'PATCH',
      url: `${url}/1`,
      respond: async (request) => {
        const body = (await request.json()) as { content: string };
        notes = notes.map((item) => (item.id === 1 ? { ...item, content: body.content } : item));
        return { body: envelope(notes[0]) };
      },
    },
    {
      method: 'DELETE',
      url: `${url}/2`,
      respond: () => {
        notes = notes.filter((item) => item.id !== 2);
        return { body: envelope('success') };
      },
    },
    // The mock answers JSON: the Markdown travels as a JSON string, which the client reads as the same text.
    { url: '/api/classes/7/notes?format=md', respond: () => ({ body: '# 파동 물리 메모\n' }) },
  ]);
}

signedInPerTest();
afterEach(() => vi.unstubAllGlobals());

describe('the notes panel', { timeout: 15_000 }, () => {
  it('renders line breaks and web links only, and seeks from a note', async () => {
    serve();
    const onSeek = vi.fn();
    const { container } = renderWithProviders(
      <NotesPanel classId={7} sessionId={4} timeMs={0} onSeek={onSeek} />,
    );
    const panel = await screen.findByRole('region', { name: '내 메모' });
    expect(await within(panel).findByText(/여기 시험에 나옴/)).toBeInTheDocument();
    const links = within(panel).getAllByRole('link');
    expect(
      links.map((link) => [link.textContent, link.getAttribute('href'), link.getAttribute('rel')]),
    ).toEqual([
      ['정리', 'https://example.com/a', 'noopener noreferrer'],
      ['https://example.com/b', 'https://example.com/b', 'noopener noreferrer'],
    ]);
    // Markdown other than links, HTML and other schemes stay as the characters typed.
    expect(
      within(panel).getByText(
        /\*\*굵게\*\* <img src=x onerror=alert\(1\)> \[몰래\]\(javascript:alert\(1\)\)/,
      ),
    ).toBeInTheDocument();
    expect(container.querySelector('img, strong, b')).toBeNull();
    expect(container.querySelectorAll('br')).toHaveLength(1);
    await userEvent.click(within(panel).getByRole('button', { name: '12:34로 이동' }));
    expect(onSeek).toHaveBeenCalledWith(754);
  });

  it('adds a note at the player time, edits one, deletes one and exports them all', async () => {
    const { calls } = serve();
    const saved: Blob[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(class extends URL {}, {
        createObjectURL: (blob: Blob) => {
          saved.push(blob);
          return 'blob:notes';
        },
        revokeObjectURL: () => undefined,
      }),
    );
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    renderWithProviders(
      <NotesPanel classId={7} className="파동/물리" sessionId={4} timeMs={65_400} onSeek={() => undefined} />,
    );
    const panel = await screen.findByRole('region', { name: '내 메모' });
    await userEvent.type(within(panel).getByRole('textbox', { name: '메모 내용' }), '공식 외우기');
    await userEvent.click(within(panel).getByRole('button', { name: '1:05에 메모 남기기' }));
    expect(await within(panel).findByText('공식 외우기')).toBeInTheDocument();
    expect(await calls.find((call) => call.method === 'POST')?.json()).toEqual({
      offset_ms: 65_400,
      content: '공식 외우기',
    });

    await userEvent.click(within(panel).getByRole('button', { name: '12:34 메모 고치기' }));
    const field = within(panel).getAllByRole('textbox', { name: '메모 내용' })[1] as HTMLElement;
    await userEvent.clear(field);
    await userEvent.type(field, '고친 메모');
    await userEvent.click(within(panel).getByRole('button', { name: '저장' }));
    expect(await within(panel).findByText('고친 메모')).toBeInTheDocument();

    await userEvent.click(within(panel).getByRole('button', { name: '13:20 메모 지우기' }));
    await waitFor(() => expect(within(panel).queryByText(/굵게/)).not.toBeInTheDocument());

    await userEvent.click(within(panel).getByRole('button', { name: '메모 내려받기 (.md)' }));
    await waitFor(() => expect(clicks).toEqual(['파동 물리 메모.md']));
    expect(await (saved[0] as Blob).text()).toBe('# 파동 물리 메모\n');
  });
});

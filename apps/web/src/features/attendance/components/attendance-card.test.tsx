import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setTokens } from '../../../lib/auth-tokens.ts';
import { envelope, errorEnvelope, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { attendanceRecord } from '../test/attendance-fixtures.ts';
import { AttendanceCard } from './attendance-card.tsx';
import { MyAttendance } from './my-attendance.tsx';

const CSV = '세션 시작,세션 종료,학생,첫 입장,마지막 퇴장,입장 횟수,실시간 시청(분),다시보기 시청(분)\r\n';

/** Today in Korea, as the file name writes it. */
const today = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Seoul' }).format(new Date());

function cells(row: HTMLElement): string[] {
  return [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? '');
}

beforeEach(() => {
  setTokens({ accessToken: 'a', refreshToken: 'r' });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("the teacher's attendance card", { timeout: 15_000 }, () => {
  it('shows a table per session: 출석 / 지각 / 결석, joins, first join, last leave, watch times', async () => {
    mockFetch([
      { url: '/api/classes/7/attendance', respond: () => ({ body: envelope(attendanceRecord()) }) },
    ]);
    renderWithProviders(<AttendanceCard classId={7} />);
    const newest = await screen.findByRole('table', {
      name: '파도 읽기 2강 · 출석 1명 · 지각 1명 · 결석 1명',
    });
    const rows = within(newest).getAllByRole('row').slice(1);
    expect(rows.map(cells)).toEqual([
      ['해달', '출석', '2회', '19:02', '20:00', '53분', '0초'],
      ['물범', '지각', '1회', '19:15', '접속 중', '25분', '45초'],
      ['게', '결석', '0회', '-', '-', '0초', '20분'],
    ]);
    // Each value carries its label, which a phone shows above it in the row's card.
    expect(rows[2]?.querySelector('td')?.dataset.label).toBe('출석');
    expect(
      screen.getByRole('table', { name: /2026년 11월 17일 \(화\) 10:00 · 출석 1명 · 지각 0명 · 결석 0명/ }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: /아무도 오지 않은 날/ })).not.toBeInTheDocument();
    expect(screen.getByText('아무도 오지 않은 날 · 출석 0명 · 지각 0명 · 결석 0명')).toBeInTheDocument();
    expect(screen.getByText('참여한 수강생이 없어요.')).toBeInTheDocument();
  });

  it('shows one line per student when asked', async () => {
    mockFetch([
      { url: '/api/classes/7/attendance', respond: () => ({ body: envelope(attendanceRecord()) }) },
    ]);
    renderWithProviders(<AttendanceCard classId={7} />);
    await screen.findByRole('table', { name: /^파도 읽기 2강 · / });
    await userEvent.click(screen.getByRole('button', { name: '학생별' }));
    expect(screen.getByRole('button', { name: '학생별' })).toHaveAttribute('aria-pressed', 'true');
    const table = screen.getByRole('table', { name: '학생별' });
    expect(within(table).getAllByRole('row').slice(1).map(cells)).toEqual([
      ['게', '0 / 3회', '0초', '20분'],
      ['물범', '1 / 3회', '25분', '45초'],
      ['해달', '2 / 3회', '1시간 53분', '10분'],
    ]);
  });

  it('downloads the CSV with the bearer token and saves it with its byte order mark', async () => {
    const { calls } = mockFetch([
      // The mock answers JSON: the CSV travels as a JSON string, which the client reads as the same text.
      { url: '/api/classes/7/attendance?format=csv', respond: () => ({ body: `\uFEFF${CSV}` }) },
      { url: '/api/classes/7/attendance', respond: () => ({ body: envelope(attendanceRecord()) }) },
    ]);
    const saved: Blob[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(class extends URL {}, {
        createObjectURL: (blob: Blob) => {
          saved.push(blob);
          return 'blob:attendance';
        },
        revokeObjectURL: () => undefined,
      }),
    );
    const clicks: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push({ href: this.getAttribute('href') ?? '', download: this.download });
    });
    renderWithProviders(<AttendanceCard classId={7} />);
    await userEvent.click(await screen.findByRole('button', { name: '출석부 CSV 내려받기' }));
    await waitFor(() =>
      expect(clicks).toEqual([{ href: 'blob:attendance', download: `파도 읽기_출석부_${today()}.csv` }]),
    );
    const request = calls.find((call) => call.url.endsWith('format=csv'));
    expect(request?.headers.get('authorization')).toBe('Bearer a');
    const bytes = new Uint8Array(await (saved[0] as Blob).arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes)).toBe(CSV);
    expect(saved[0]?.type).toBe('text/csv;charset=utf-8');
  });

  it('says so when the CSV cannot be downloaded', async () => {
    mockFetch([
      {
        url: '/api/classes/7/attendance?format=csv',
        respond: () => ({ status: 500, body: errorEnvelope(500, 'Internal Server Error') }),
      },
      { url: '/api/classes/7/attendance', respond: () => ({ body: envelope(attendanceRecord()) }) },
    ]);
    renderWithProviders(<AttendanceCard classId={7} />);
    await userEvent.click(await screen.findByRole('button', { name: '출석부 CSV 내려받기' }));
    expect(await screen.findByText('출석 기록 파일을 내려받지 못했어요.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '출석부 CSV 내려받기' })).toBeEnabled();
  });

  it('says so when the record cannot be loaded', async () => {
    mockFetch([
      {
        url: '/api/classes/7/attendance',
        respond: () => ({ status: 500, body: errorEnvelope(500, 'Internal Server Error') }),
      },
    ]);
    renderWithProviders(<AttendanceCard classId={7} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('출석 기록을 불러오지 못했어요.');
  });
});

describe("a student's own attendance", { timeout: 15_000 }, () => {
  it('shows each session with their joins and watch times, or that they have no record', async () => {
    const own = attendanceRecord();
    own.rows = own.rows.filter((row) => row.user_id === 'u-otter');
    mockFetch([{ url: '/api/classes/7/attendance', respond: () => ({ body: envelope(own) }) }]);
    renderWithProviders(<MyAttendance classId={7} />);
    const table = await screen.findByRole('table', { name: '내 출석 기록' });
    expect(within(table).getAllByRole('row').slice(1).map(cells)).toEqual([
      ['파도 읽기 2강', '출석', '2회', '53분', '0초'],
      ['2026년 11월 17일 (화) 10:00', '출석', '1회', '1시간', '10분'],
      ['아무도 오지 않은 날', '참여 기록 없음'],
    ]);
    expect(screen.queryByRole('button', { name: '출석부 CSV 내려받기' })).not.toBeInTheDocument();
  });
});

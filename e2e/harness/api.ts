/// <reference lib="dom" />
// DOM types: fetch bodies (BodyInit).
import { makePng } from './png.ts';
import type { Tokens } from './accounts.ts';

export type ClassInput = { categoryId: number; name: string; object?: string; description?: string };

/** Calls the real API as a logged-in user, for setting up what a journey needs (many classes, a live one). */
export class ApiClient {
  readonly baseUrl: string;
  readonly tokens: Tokens;

  constructor(baseUrl: string, tokens: Tokens) {
    this.baseUrl = baseUrl;
    this.tokens = tokens;
  }

  async #call(method: string, path: string, body?: FormData | object): Promise<unknown> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.tokens.accessToken}` };
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body: payload });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return text ? (JSON.parse(text) as unknown) : null;
  }

  /** Opens a class (optionally with a generated PNG banner); returns its id. */
  async createClass(input: ClassInput, withBanner = false): Promise<number> {
    const form = new FormData();
    const dto = {
      categoryId: input.categoryId,
      name: input.name,
      object: input.object ?? '기초부터 차근차근 배워요.',
      description: input.description ?? '매주 한 번 라이브로 만나는 강의예요.',
      instructorInfo: null,
      prerequisite: null,
      announcement: null,
    };
    form.append('classroomCreateDto', new Blob([JSON.stringify(dto)], { type: 'application/json' }));
    if (withBanner) {
      form.append(
        'imagefile',
        new Blob([makePng(640, 360, [11, 61, 145], [25, 179, 196])], { type: 'image/png' }),
        'banner.png',
      );
    }
    const answer = (await this.#call('POST', '/api/classes', form)) as { data: { id: number } };
    return answer.data.id;
  }

  /** Adds an entry to a class's schedule (teacher): date `YYYY-MM-DD`, times `HH:MM:SS`, Asia/Seoul. */
  async addSchedule(
    classId: number,
    entry: { content: string; date: string; start_time: string; end_time: string },
  ): Promise<void> {
    await this.#call('POST', `/api/classes/${classId}/schedule`, entry);
  }

  async setLive(classId: number, active: boolean): Promise<void> {
    await this.#call('PATCH', `/api/classes/${classId}/isActive`, { active });
  }

  async enroll(classId: number): Promise<void> {
    await this.#call('POST', `/api/classes/${classId}/enroll`);
  }

  /** The first page of a class's reviews, newest first. */
  async reviews(classId: number): Promise<{ id: number; user_id: string }[]> {
    const answer = (await this.#call('GET', `/api/classes/${classId}/reviews`)) as {
      data: { id: number; user_id: string }[];
    };
    return answer.data;
  }

  /** The teacher's reply to a review. */
  async reply(classId: number, reviewId: number, content: string): Promise<void> {
    await this.#call('POST', `/api/classes/${classId}/reviews/${reviewId}/reply`, { content });
  }
}

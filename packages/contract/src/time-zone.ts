// Free of zod: the web app's first load (cards say '오늘 오후 8시 라이브') must not bring the schemas in.

/** Schedule dates and times are wall-clock time in this zone (the server's "today" and the web's both). */
export const SCHEDULE_TIME_ZONE = 'Asia/Seoul';

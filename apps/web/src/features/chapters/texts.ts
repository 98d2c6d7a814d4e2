/** The Korean texts of a replay's chapters. */
export const CHAPTER_TEXTS = {
  chapters: '챕터',
  noChapters: '아직 챕터가 없어요.',
  renameChapter: '챕터 이름 바꾸기',
  removeChapter: '챕터 지우기',
  chapterTitle: '챕터 이름',
  newChapterTitle: '새 챕터 이름',
  addHere: '지금 시점에 챕터 추가',
  newChapter: '새 챕터',
  save: '저장',
  cancel: '취소',
  chaptersFailed: '챕터를 불러오지 못했어요.',
  changeFailed: '챕터를 바꾸지 못했어요. 잠시 후 다시 해 주세요.',
  markHere: '여기서 새 챕터',
  marked: (time: string) => `${time}에 새 챕터를 만들었어요. 다시보기에서 이름을 바꿀 수 있어요.`,
  timeline: '챕터 위치',
  seekTo: (title: string, time: string) => `${time} ${title}`,
} as const;

import type { RoomStatus } from './room-status.ts';

/** Korean texts of the live rooms (video, controls, status, refusals). */
export const LIVE_TEXTS = {
  connection: {
    connecting: '연결 중',
    connected: '연결됨',
    disconnected: '연결 끊김',
    failed: '연결 실패',
    /** The media node is restarting (a deployment): the room comes back by itself. */
    restarting: '잠시 후 다시 연결할게요',
  } satisfies Record<RoomStatus, string>,
  connectionLabel: '연결 상태',
  /** Over the stage while the media connection is lost and coming back (the seconds count up). */
  outage: (seconds: number) => `연결이 끊겼어요. 다시 연결하는 중이에요 (${seconds}초)`,
  viewerCount: (count: number) => `시청자 ${count}명`,
  /** The lecture's elapsed time since its session started ('강의 시간 12:34', '강의 시간 1:02:03'). */
  elapsed: (clock: string) => `강의 시간 ${clock}`,
  /** The recording indicator: the same for teacher and students, so nobody is recorded unknowingly. */
  recording: {
    label: '녹화 상태',
    on: '녹화 중',
    paused: '녹화 일시정지',
    off: '녹화하지 않음',
    studentOn: '이 강의는 녹화되고 있어요',
    studentPaused: '녹화가 잠시 멈췄어요',
    /** The media service cannot write the recording (its disk is full or broken): it resumes by itself. */
    stalled: '저장 공간이 부족해 녹화가 멈췄어요',
    studentStalled: '지금은 녹화되지 않고 있어요',
    /** The connection to the media service is lost: nothing reaches the recording meanwhile. */
    interrupted: '연결이 끊겨 녹화가 멈췄어요',
    /** A student cut off cannot know whether the lecture goes on being recorded. */
    studentInterrupted: '연결이 끊겨 녹화 상태를 알 수 없어요',
    pause: '녹화 일시정지',
    resume: '녹화 다시 시작',
  },
  stream: {
    off: '꺼짐',
    capturing: '장치 준비 중',
    publishing: '송출 준비 중',
    published: '송출 중',
    /** Published, but the connection is lost: nothing reaches the students meanwhile. */
    interrupted: '송출 멈춤',
    failed: '송출 실패',
  },
  /** Why a toggle could not capture (the spec's 'Failed to get user media' for camera and microphone). */
  capture: {
    webcam: { failed: '카메라·마이크를 사용할 수 없어요' },
    microphone: { failed: '카메라·마이크를 사용할 수 없어요' },
    screen: {
      cancelled: '화면 공유를 취소했어요',
      unsupported: '이 브라우저는 화면을 공유할 수 없어요',
      failed: '화면을 공유할 수 없어요',
    },
    systemAudio: {
      cancelled: '시스템 소리 공유를 취소했어요',
      unsupported: '이 브라우저는 시스템 소리를 보낼 수 없어요',
      failed: '시스템 소리를 가져올 수 없어요',
    },
  },
  toggle: {
    webcam: '웹캠',
    screen: '화면 공유',
    microphone: '마이크',
    systemAudio: '시스템 소리',
  },
  turnOn: (name: string) => `${name} 켜기`,
  turnOff: (name: string) => `${name} 끄기`,
  webcamPreview: '내 웹캠 미리보기',
  screenPreview: '내 화면 공유 미리보기',
  noScreen: '화면 공유가 꺼져 있어요',
  noWebcam: '웹캠이 꺼져 있어요',
  teacherScreen: '강사 화면 공유',
  teacherWebcam: '강사 카메라 영상',
  waitingScreen: '강사가 화면을 공유하면 여기에 나타나요',
  waitingWebcam: '카메라 꺼짐',
  tapToHear: '소리 켜기',
  tapToHearHint: '브라우저가 자동 재생을 막았어요. 눌러서 강사 목소리를 들어 보세요.',
  quality: '화질',
  layers: { auto: '자동', f: '고화질', h: '중화질', q: '저화질' },
  /** A light mode for weak networks (issue 34): the student's choice, kept on this device. */
  dataSaving: {
    label: '데이터 절약 모드',
    hint: '자료가 화면에 있는 동안 화면 공유 영상을 받지 않고, 웹캠은 가장 낮은 화질로 받아요. 소리와 자료·판서는 그대로예요.',
    /** The quality menu while the mode is on. */
    qualityFixed: '데이터 절약 모드에서는 저화질로 받아요',
  },
  ended: '강의가 종료되었어요',
  notLive: '지금은 라이브 강의 중이 아니에요. 강사가 강의를 시작하면 들어올 수 있어요.',
  /** Product-spec section 8, live state: what a refused entry says (and where it goes, see room-failure.ts). */
  refusal: {
    loginAgain: '권한이 없어요. 다시 로그인해 주세요.',
    classNotFound: '강의를 찾을 수 없어요.',
    noAccess: '강의에 접근할 권한이 없어요.',
    unknown: '알 수 없는 오류가 발생했어요. 잠시 후 다시 시도해 주세요.',
    unreachable: '서버에 연결하지 못했어요. 잠시 후 다시 시도해 주세요.',
    full: '강의실이 가득 차서 입장하지 못했어요. 잠시 후 다시 시도해 주세요.',
  },
  toDashboard: '대시보드로 돌아가기',
  /** Raise hand and speak: the teacher's invitation, the student's answer, who speaks now. */
  speaking: {
    invite: '발언 요청',
    waiting: '수락 기다리는 중',
    now: '발언 중',
    end: '발언 종료',
    endOwn: '발언 끝내기',
    label: '발언',
    speakers: '발언자',
    prompt: '강사가 발언을 요청했어요. 마이크를 켜고 말할까요?',
    accept: '수락',
    decline: '거절',
    starting: '마이크를 연결하는 중이에요…',
    speakingNow: '발언 중 · 모두가 내 목소리를 듣고 있어요',
    others: (names: string) => `${names} 님이 발언 중이에요`,
    micDenied:
      '마이크 사용을 허용하지 않아 발언할 수 없어요. 브라우저의 사이트 권한에서 마이크를 허용한 뒤 다시 요청을 받아 주세요.',
    micMissing: '사용할 수 있는 마이크를 찾지 못했어요. 마이크를 연결한 뒤 다시 요청을 받아 주세요.',
    micFailed: '마이크를 켜지 못했어요. 잠시 후 다시 시도해 주세요.',
    failed: '발언을 시작하지 못했어요. 잠시 후 다시 시도해 주세요.',
  },
  /** What the signalling client says when a request cannot be answered. */
  signalling: {
    offline: '미디어 서버와 연결이 끊겼어요.',
    timeout: '미디어 서버가 응답하지 않아요.',
    refused: '미디어 서버가 입장을 거절했어요.',
  },
} as const;

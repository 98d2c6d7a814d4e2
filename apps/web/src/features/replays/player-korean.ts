import { addTranslation, setLanguage } from 'media-chrome/dist/utils/i18n.js';

/**
 * media-chrome ships no Korean: its controls' names (what screen readers say, the tooltips) in Korean, for the
 * controls the replay player uses. Keys it reads but this leaves out fall back to English.
 */
export function installKoreanPlayerTexts(): void {
  addTranslation('ko', {
    Play: '재생',
    Pause: '일시 정지',
    play: '재생',
    pause: '일시 정지',
    Mute: '음소거',
    Unmute: '음소거 해제',
    mute: '음소거',
    unmute: '음소거 해제',
    volume: '음량',
    seek: '재생 위치',
    'Seek backward': '뒤로 이동',
    'Seek forward': '앞으로 이동',
    // The buttons show the number: a name that starts with it names what the eye sees (WCAG 2.5.3).
    'seek back {seekOffset} seconds': '{seekOffset} 초 뒤로',
    'seek forward {seekOffset} seconds': '{seekOffset} 초 앞으로',
    'Playback rate': '재생 속도',
    'Playback rate {playbackRate}': '{playbackRate}x 재생 속도',
    'current playback rate': '현재 재생 속도',
    'Enter fullscreen mode': '전체 화면',
    'Exit fullscreen mode': '전체 화면 종료',
    'enter fullscreen mode': '전체 화면',
    'exit fullscreen mode': '전체 화면 종료',
    'playback time': '재생 시간',
    'media loading': '영상 불러오는 중',
    'video player': '동영상 플레이어',
    'Network Error': '네트워크 오류',
    'Decode Error': '디코딩 오류',
    'Source Not Supported': '지원하지 않는 영상',
    'A network error caused the media download to fail.': '네트워크 오류로 영상을 받지 못했어요.',
    hour: '시간',
    hours: '시간',
    minute: '분',
    minutes: '분',
    second: '초',
    seconds: '초',
    '{time} remaining': '{time} 남음',
    '{currentTime} of {totalTime}': '{totalTime} 중 {currentTime}',
    'video not loaded, unknown time.': '영상을 불러오지 않아 시간을 알 수 없어요.',
  });
  setLanguage('ko');
}

import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '../../../testing/render.tsx';
import { useTeacherRoom } from '../hooks/use-teacher-room.ts';
import { LiveServicesContext, type LiveServices } from '../live-services.ts';
import { ConnectionBanner } from '../components/connection-banner.tsx';
import { LiveVideo } from '../components/live-video.tsx';
import { TeacherControls } from '../components/teacher-controls.tsx';

/** The teacher's room of class 7 with its controls, previews and a way out. */
export function Room() {
  const room = useTeacherRoom(7);
  return (
    <>
      <ConnectionBanner outage={room.outage} />
      <TeacherControls room={room} />
      <LiveVideo track={room.previews.screen} label="화면 미리보기" placeholder="화면 꺼짐" />
      <LiveVideo track={room.previews.webcam} label="웹캠 미리보기" placeholder="웹캠 꺼짐" />
      <button type="button" onClick={room.leave}>
        나가기
      </button>
    </>
  );
}

/** The teacher's room on its route, over the given live services. */
export function renderRoom(services: LiveServices) {
  return renderWithProviders(
    <LiveServicesContext.Provider value={services}>
      <Room />
    </LiveServicesContext.Provider>,
    { route: '/live/teacher/7', path: '/live/teacher/:classId' },
  );
}

/** The state text of a toggle. */
export const stateOf = (toggle: string) => document.querySelector(`[data-toggle="${toggle}"]`)?.textContent;
/** The room's connection status. */
export const status = () => screen.getByRole('status', { name: '연결 상태' });
/** The app's notices (in-app alerts), by their text. */
export const notices = () =>
  within(screen.getByRole('region', { name: '알림' }))
    .queryAllByRole('alert')
    .map((notice) => notice.textContent?.replace('×', '').trim());

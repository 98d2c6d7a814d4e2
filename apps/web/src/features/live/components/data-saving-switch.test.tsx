import { act, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../testing/render.tsx';
import { useStudentRoom } from '../hooks/use-student-room.ts';
import { LiveServicesContext, type LiveServices } from '../live-services.ts';
import { FakeMediaStream, fakeLiveServices } from '../test/fake-live-services.ts';
import { StudentStatus } from './student-stage.tsx';

beforeEach(() => {
  localStorage.clear();
  vi.stubGlobal('MediaStream', FakeMediaStream);
});
afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

/** Puts a material on stage or takes it off, as the board would (set by the rendered room). */
let setMaterialOnStage: (onStage: boolean) => void = () => {};

function Room({ initial }: { initial: boolean }) {
  const [materialOnStage, set] = useState(initial);
  setMaterialOnStage = set;
  const room = useStudentRoom(7, materialOnStage);
  return <StudentStatus room={room} />;
}

function renderRoom(services: LiveServices, materialOnStage = false) {
  return renderWithProviders(
    <LiveServicesContext.Provider value={services}>
      <Room initial={materialOnStage} />
    </LiveServicesContext.Provider>,
    { route: '/live/student/7', path: '/live/student/:classId' },
  );
}

const dataSavingSwitch = () => screen.getByRole('switch', { name: '데이터 절약 모드' });
const quality = () => screen.getByRole('combobox', { name: '화질' });

describe("'데이터 절약 모드' switch", () => {
  it('is off at first; turned on it says what it does, fixes the quality at 저화질 and is remembered', async () => {
    const fakes = fakeLiveServices();
    const { unmount } = renderRoom(fakes.services);
    await waitFor(() => expect(fakes.services.createViewer).toHaveBeenCalled());
    expect(dataSavingSwitch()).not.toBeChecked();
    expect(dataSavingSwitch()).toHaveAccessibleDescription(
      '자료가 화면에 있는 동안 화면 공유 영상을 받지 않고, 웹캠은 가장 낮은 화질로 받아요. 소리와 자료·판서는 그대로예요.',
    );
    await userEvent.selectOptions(quality(), '고화질');
    expect(fakes.viewer.layers).toEqual(['f']);

    await userEvent.click(dataSavingSwitch());
    expect(dataSavingSwitch()).toBeChecked();
    expect(fakes.viewer.dataSaving).toEqual([false, true]);
    expect(quality()).toBeDisabled();
    expect(quality()).toHaveValue('q');
    unmount();

    // The next room on this device starts in data saving, before it joins.
    const again = fakeLiveServices();
    renderRoom(again.services);
    await waitFor(() => expect(again.services.createViewer).toHaveBeenCalled());
    expect(dataSavingSwitch()).toBeChecked();
    expect(again.viewer.dataSaving).toEqual([true]);
  });

  it('turned off gives back the chosen quality and forgets the choice', async () => {
    localStorage.setItem('sea.live.data-saving', 'on');
    const fakes = fakeLiveServices();
    const { unmount } = renderRoom(fakes.services);
    await waitFor(() => expect(fakes.services.createViewer).toHaveBeenCalled());
    expect(quality()).toBeDisabled();
    await userEvent.click(dataSavingSwitch());
    expect(fakes.viewer.dataSaving).toEqual([true, false]);
    expect(quality()).toBeEnabled();
    expect(quality()).toHaveValue('auto');
    unmount();
    const again = fakeLiveServices();
    renderRoom(again.services);
    await waitFor(() => expect(again.services.createViewer).toHaveBeenCalled());
    expect(dataSavingSwitch()).not.toBeChecked();
  });

  it('tells the viewer whether a material is on stage, at the start and on each change', async () => {
    const fakes = fakeLiveServices();
    renderRoom(fakes.services, true);
    await waitFor(() => expect(fakes.services.createViewer).toHaveBeenCalled());
    expect(fakes.viewer.materialOnStage).toEqual([true]);
    act(() => setMaterialOnStage(false));
    act(() => setMaterialOnStage(false));
    act(() => setMaterialOnStage(true));
    expect(fakes.viewer.materialOnStage).toEqual([true, false, true]);
  });
});

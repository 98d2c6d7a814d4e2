import { MypagePage } from '../../features/catalogue/components/mypage-page.tsx';

export function Component() {
  return <MypagePage />;
}

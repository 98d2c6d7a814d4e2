import { useQuery } from '@tanstack/react-query';
import type { AppKey } from '@sea/contract/auth';
import { ROUTES } from '@sea/contract/paths';
import { http } from '../../../lib/http.ts';

/** `GET /api/auth/kakao/app-key` (bare): the Kakao JavaScript key and which provider the server runs. */
export function getAppKey(): Promise<AppKey> {
  return http<AppKey>(ROUTES.appKey, { bare: true, anonymous: true });
}

export function useAppKey() {
  return useQuery({ queryKey: ['auth', 'app-key'], queryFn: getAppKey, staleTime: Infinity });
}

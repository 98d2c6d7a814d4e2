import { useMutation } from '@tanstack/react-query';
import type { Signup } from '@sea/contract/users';
import { ROUTES } from '@sea/contract/paths';
import { IMAGE_PART } from '@sea/contract/uploads';
import { http, multipart } from '../../../lib/http.ts';

export type SignUpInput = {
  profile: { nickname: string; email: string | null };
  photo: File | null;
  accessToken: string;
  onUploadProgress?: (fraction: number) => void;
};

/** `POST /api/auth/signup`: part `signupRequestDto` (JSON) and an optional `imagefile`, with the login's token. */
export function signUp({ profile, photo, accessToken, onUploadProgress }: SignUpInput): Promise<unknown> {
  const body: Signup = profile;
  return http(ROUTES.signup, {
    method: 'POST',
    token: accessToken,
    form: multipart('signupRequestDto', body, { part: IMAGE_PART, file: photo }),
    ...(onUploadProgress ? { onUploadProgress } : {}),
  });
}

export function useSignUp() {
  return useMutation({ mutationFn: signUp });
}

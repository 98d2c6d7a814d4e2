import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ROUTES } from '@sea/contract/paths';
import { IMAGE_PART } from '@sea/contract/uploads';
import { UserSchema } from '@sea/contract/users';
import type { User, UserUpdate } from '@sea/contract/users';
import { CURRENT_USER_KEY } from '../../../lib/current-user.ts';
import { http, multipart } from '../../../lib/http.ts';

export type UpdateProfileInput = {
  profile: UserUpdate;
  photo: File | null;
  onUploadProgress?: (fraction: number) => void;
};

/** `PATCH /api/users`: part `userUpdateDTO` (JSON) and an optional new picture in `imagefile`. */
export function updateProfile({ profile, photo, onUploadProgress }: UpdateProfileInput): Promise<User> {
  return http(ROUTES.users, {
    method: 'PATCH',
    form: multipart('userUpdateDTO', profile, { part: IMAGE_PART, file: photo }),
    schema: UserSchema,
    ...(onUploadProgress ? { onUploadProgress } : {}),
  });
}

/** Saving reloads the signed-in user everywhere (the header's avatar and name too). */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: async (user) => {
      queryClient.setQueryData(CURRENT_USER_KEY, user);
      await queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    },
  });
}

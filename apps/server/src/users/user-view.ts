import type { User } from '@sea/contract/users';
import type { users } from '../db/schema.ts';
import { imageUrl, type Storage } from '../storage/storage.ts';

/** A user as `GET /api/users` and the sign-up answer show it. */
export function userView(storage: Storage, user: typeof users.$inferSelect): User {
  return {
    id: user.id,
    nickname: user.nickname,
    email: user.email,
    profile_image_path: imageUrl(storage, user.profileImage),
    introduction: user.introduction,
  };
}

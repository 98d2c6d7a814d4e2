import banner0 from '../assets/banners/banner-0.svg';
import banner1 from '../assets/banners/banner-1.svg';
import banner2 from '../assets/banners/banner-2.svg';
import banner3 from '../assets/banners/banner-3.svg';
import banner4 from '../assets/banners/banner-4.svg';
import banner5 from '../assets/banners/banner-5.svg';
import banner6 from '../assets/banners/banner-6.svg';
import banner7 from '../assets/banners/banner-7.svg';
import banner8 from '../assets/banners/banner-8.svg';
import banner9 from '../assets/banners/banner-9.svg';
import crab from '../assets/avatars/crab.svg';
import jellyfish from '../assets/avatars/jellyfish.svg';
import seahorse from '../assets/avatars/seahorse.svg';
import turtle from '../assets/avatars/turtle.svg';
import whale from '../assets/avatars/whale.svg';
import chatAvatar0 from '../assets/chat-avatars/chat-avatar-0.svg';
import chatAvatar1 from '../assets/chat-avatars/chat-avatar-1.svg';
import chatAvatar2 from '../assets/chat-avatars/chat-avatar-2.svg';
import instructor0 from '../assets/instructors/instructor-0.svg';
import instructor1 from '../assets/instructors/instructor-1.svg';
import instructor2 from '../assets/instructors/instructor-2.svg';
import { hashIndex } from './string-hash.ts';

/** The 10 bundled banners; a class without a banner shows `DEFAULT_BANNERS[classId % 10]`. */
export const DEFAULT_BANNERS = [
  banner0,
  banner1,
  banner2,
  banner3,
  banner4,
  banner5,
  banner6,
  banner7,
  banner8,
  banner9,
] as const;

/** The five sea-creature profile pictures, in the spec's order. */
export const DEFAULT_AVATARS = [crab, jellyfish, seahorse, turtle, whale] as const;

/** The three default pictures of the chat and the student list. */
export const DEFAULT_CHAT_AVATARS = [chatAvatar0, chatAvatar1, chatAvatar2] as const;

/** The three instructor pictures of the class introduction. */
export const INSTRUCTOR_IMAGES = [instructor0, instructor1, instructor2] as const;

function pick<T>(list: readonly T[], index: number): T {
  const item = list[index];
  if (item === undefined) throw new RangeError(`No default image at ${index}`);
  return item;
}

/** The class's banner, or its default when it has none. */
export function bannerFor(classId: number, bannerPath?: string | null): string {
  if (bannerPath) return bannerPath;
  return pick(DEFAULT_BANNERS, Math.abs(classId % DEFAULT_BANNERS.length));
}

/** The user's picture, or a sea creature chosen by the nickname's hash. */
export function avatarFor(nickname: string, imagePath?: string | null): string {
  if (imagePath) return imagePath;
  return pick(DEFAULT_AVATARS, hashIndex(nickname, DEFAULT_AVATARS.length));
}

/** The chat / student-list picture, or one of three defaults chosen by the name's hash. */
export function chatAvatarFor(name: string, imagePath?: string | null): string {
  if (imagePath) return imagePath;
  return pick(DEFAULT_CHAT_AVATARS, hashIndex(name, DEFAULT_CHAT_AVATARS.length));
}

/** The class introduction's instructor picture, chosen by the instructor's name. */
export function instructorImageFor(instructor: string): string {
  return pick(INSTRUCTOR_IMAGES, hashIndex(instructor, INSTRUCTOR_IMAGES.length));
}

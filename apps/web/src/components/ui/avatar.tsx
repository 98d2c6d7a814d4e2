import { useState } from 'react';
import { avatarFor, chatAvatarFor } from '../../lib/default-images.ts';
import { UI_TEXTS } from './texts.ts';
import styles from './avatar.module.css';

export type AvatarProps = {
  name: string;
  src?: string | null;
  size?: number;
  /** 'profile' picks one of the five sea creatures, 'chat' one of the three chat/student-list defaults. */
  set?: 'profile' | 'chat';
  /** Empty when a text next to the picture already names the person. */
  alt?: string;
};

/** A round user picture that falls back to a default when the image is missing or broken. */
export function Avatar({ name, src, size = 40, set = 'profile', alt }: AvatarProps) {
  const [broken, setBroken] = useState<string | null>(null);
  const fallback = set === 'chat' ? chatAvatarFor(name) : avatarFor(name);
  const usable = src && src !== broken ? src : fallback;
  return (
    <img
      className={styles.avatar}
      src={usable}
      alt={alt ?? UI_TEXTS.avatarAlt(name)}
      width={size}
      height={size}
      onError={() => {
        if (src) setBroken(src);
      }}
    />
  );
}

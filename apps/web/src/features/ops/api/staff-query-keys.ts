import type { QueryKey } from '@tanstack/react-query';

/** Every query key of the staff console; all start with `staff`, so signing out drops them together. */
export const staffQueryKeys = {
  all: ['staff'],
  me: ['staff', 'me'],
  members: ['staff', 'members'],
} as const satisfies Record<string, QueryKey | ((...parts: never[]) => QueryKey)>;

import type { QueryKey } from '@tanstack/react-query';

/** Every query key of the staff console; all start with `staff`, so signing out drops them together. */
export const staffQueryKeys = {
  all: ['staff'],
  me: ['staff', 'me'],
  members: ['staff', 'members'],
  settings: ['staff', 'settings'],
  audit: (filter: Readonly<Record<string, string>>) => ['staff', 'audit', filter],
} as const satisfies Record<string, QueryKey | ((...parts: never[]) => QueryKey)>;

/**
 * Where this browser remembers that a customer has seen the welcome (features/dashboard's
 * welcome-dialog.tsx); tests set it to keep the welcome out of their way.
 */
export function welcomeStorageKey(userId: string): string {
  return `strongroom.welcome-seen.${userId}`;
}

import { useStaffMe } from '../api/staff-session.ts';

/** The systems that act on the books without a staff member (docs/books.md, "Reconciliation"), in words. */
export const systemActorWords: Readonly<Record<string, string>> = {
  'rail-simulator': 'the settlement bank’s simulator',
  'ops-cli': 'the ops command line',
};

/**
 * Who did something, in words: "you" for the member reading (so an entry of one's own is plain to
 * see), else the member's email, else the system's name; the raw id only for an actor the screen
 * does not know (a member since removed, a system added later).
 */
export function actorInWords(id: string, email: string | null, myId: string | undefined): string {
  if (id === myId) return 'you';
  return email ?? systemActorWords[id] ?? id;
}

/** actorInWords for the signed-in member. */
export function useActorInWords(): (id: string, email: string | null) => string {
  const myId = useStaffMe().data?.staff.id;
  return (id, email) => actorInWords(id, email, myId);
}

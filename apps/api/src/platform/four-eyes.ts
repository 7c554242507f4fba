import type { Queryable } from '../db/database.ts';

/**
 * Whether `staffId` and any of `approvers` are linked by grants of back-office access (migration
 * 0028, decision 050). Each member and everyone up their chain of grants (who granted them, who
 * granted that one, up to members no staff member granted) form a set; two members are linked
 * when their sets meet: one granted the other, directly or through others, or one person granted
 * both. UNION, not UNION ALL, ends the walk on a cycle (A created B, then B enabled A again).
 */
export async function approversLinked(tx: Queryable, staffId: string, approvers: readonly string[]): Promise<boolean> {
  const [row] = await tx.query<{ linked: boolean }>(
    `WITH RECURSIVE chain (member, ancestor) AS (
       SELECT member, member FROM unnest($1::uuid[]) AS seed (member)
       UNION
       SELECT chain.member, grants.granted_by FROM chain JOIN staff_access_grants grants ON grants.staff_id = chain.ancestor
        WHERE grants.granted_by IS NOT NULL
     )
     SELECT EXISTS (
       SELECT 1 FROM chain mine JOIN chain theirs ON theirs.ancestor = mine.ancestor
        WHERE mine.member = $2::uuid AND theirs.member <> $2::uuid
     ) AS linked`,
    [[staffId, ...approvers], staffId],
  );
  if (!row) throw new Error('the four-eyes link check answered no row');
  return row.linked;
}

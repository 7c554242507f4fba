import { describe, expect, it } from 'vitest';
import { statusInWords } from './status-words.ts';

describe('statuses in words', () => {
  it('says each known status in words', () => {
    expect(statusInWords('pending_approval')).toBe('Waiting for approval');
    expect(statusInWords('in_review')).toBe('In review');
    expect(statusInWords('not_submitted')).toBe('Not submitted');
    expect(statusInWords('awaiting_second_approval')).toBe('Waiting for a second approval');
  });

  it('says a status it does not know yet in words too, and never reads the prototype', () => {
    expect(statusInWords('partly_settled_late')).toBe('Partly settled late');
    expect(statusInWords('constructor')).toBe('Constructor');
  });
});

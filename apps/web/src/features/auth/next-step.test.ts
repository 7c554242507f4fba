import { describe, expect, it } from 'vitest';
import { pathForNextStep } from './next-step.ts';

describe('pathForNextStep', () => {
  it('sends each onboarding step to the seed’s screen', () => {
    expect(pathForNextStep('verify-email', 'ada+test@example.com')).toBe('/verify/ada%2Btest%40example.com');
    expect(pathForNextStep('phone', 'a@b.co')).toBe('/phonesignup');
    expect(pathForNextStep('identity', 'a@b.co')).toBe('/registeration');
    expect(pathForNextStep('profile-photo', 'a@b.co')).toBe('/profilephoto');
    expect(pathForNextStep('dashboard', 'a@b.co')).toBe('/dashboard');
  });
});

import { useMutation } from '@tanstack/react-query';
import { sessionResponseSchema } from '@strongroom/contracts/auth.ts';
import type { IdentityFields } from '@strongroom/contracts/onboarding.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { rememberSession } from '../../../lib/api/get-me.ts';

export interface IdentityInput extends IdentityFields {
  document: File;
}

/**
 * `POST /api/v1/onboarding/identity` as multipart/form-data: `document` (PNG or JPEG, at most
 * 5 MB) and the text fields -> 201 `{ user, next }`; 400 with `fields`, 413 when the image is too large.
 */
export function submitIdentity({ document, ...fields }: IdentityInput) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set('document', document);
  return apiRequest('/onboarding/identity', { method: 'POST', body: form, parse: (data) => sessionResponseSchema.parse(data) });
}

export function useSubmitIdentity() {
  return useMutation({ mutationFn: submitIdentity, onSuccess: rememberSession });
}

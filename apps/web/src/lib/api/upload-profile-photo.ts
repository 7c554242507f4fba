import { useMutation } from '@tanstack/react-query';
import { sessionResponseSchema } from '@strongroom/contracts/auth.ts';
import { apiRequest } from '../api-client.ts';
import { rememberSession } from './get-me.ts';

/** `POST /api/v1/onboarding/profile-photo` as multipart/form-data: `photo` -> 201 `{ user, next }`. */
export function uploadProfilePhoto(photo: File) {
  const form = new FormData();
  form.set('photo', photo);
  return apiRequest('/onboarding/profile-photo', { method: 'POST', body: form, parse: (data) => sessionResponseSchema.parse(data) });
}

export function useUploadProfilePhoto() {
  return useMutation({ mutationFn: uploadProfilePhoto, onSuccess: rememberSession });
}

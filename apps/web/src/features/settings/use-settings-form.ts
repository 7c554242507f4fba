import { useState } from 'react';
import { useForm, type DefaultValues, type FieldValues } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';

/**
 * A settings form (password, email, phone): the contract's schema checks each field once it has
 * been left, and what no field can show goes to the form's error dialog (`errorMessage`).
 */
export function useSettingsForm<Values extends FieldValues>(schema: z.ZodType<Values, Values>, defaultValues: DefaultValues<Values>) {
  const [errorMessage, setErrorMessage] = useState<string | null>(null);
  const form = useForm<Values>({ resolver: zodResolver(schema), mode: 'onTouched', defaultValues });
  return { ...form, errorMessage, setErrorMessage, closeError: () => setErrorMessage(null) };
}

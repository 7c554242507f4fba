import { useId } from 'react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { dataClusters } from '@strongroom/contracts/connected-apps.ts';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { FieldError } from '../../../components/ui/field.tsx';
import { TextAreaField, TextField } from '../../../components/ui/text-field.tsx';
import type { RecipientForm } from './recipient-form-schema.ts';

/** Every field of an app, each labelled, with the form's or the server's message beside it. */
export function RecipientFields({ register, errors }: { register: UseFormRegister<RecipientForm>; errors: FieldErrors<RecipientForm> }) {
  const scopesErrorId = useId();
  return (
    <>
      <TextField
        label="Name"
        required
        maxLength={100}
        autoComplete="off"
        hint="Customers see it on the consent page"
        error={errors.name?.message}
        {...register('name')}
      />
      <TextField label="Logo URL" optional type="url" maxLength={500} spellCheck={false} error={errors.logoUrl?.message} {...register('logoUrl')} />
      <TextField label="Contact email" required type="email" maxLength={254} error={errors.contactEmail?.message} {...register('contactEmail')} />
      <TextAreaField
        label="Redirect URIs"
        rows={3}
        spellCheck={false}
        className="connected-apps__code-field"
        hint="One a line, at most 10: https addresses (http only on localhost), without a #fragment"
        error={errors.redirectUris?.message}
        {...register('redirectUris')}
      />
      <fieldset className="connected-apps__clusters" aria-describedby={errors.allowedScopes ? scopesErrorId : undefined}>
        <legend>Data the app may ask for</legend>
        {dataClusters.map((cluster) => (
          <Checkbox
            key={cluster.scope}
            value={cluster.scope}
            label={
              <>
                {cluster.label}
                <span className="connected-apps__muted">{cluster.description}</span>
              </>
            }
            {...register('allowedScopes')}
          />
        ))}
        {errors.allowedScopes ? <FieldError id={scopesErrorId}>{errors.allowedScopes.message}</FieldError> : null}
      </fieldset>
      <TextAreaField
        label="Public keys (JWKS)"
        rows={6}
        spellCheck={false}
        className="connected-apps__code-field"
        hint={`The app's public keys as JSON: {"keys": [...]}. Never a private key.`}
        error={errors.jwks?.message}
        {...register('jwks')}
      />
      <TextField
        label="Requests per minute"
        required
        inputMode="numeric"
        maxLength={6}
        hint="What the app may make to the data API in a minute, over all its customers"
        error={errors.rateLimitPerMinute?.message}
        {...register('rateLimitPerMinute')}
      />
      <TextAreaField label="Reason (kept in the audit log)" rows={3} maxLength={500} error={errors.reason?.message} {...register('reason')} />
    </>
  );
}

import { useState } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useSearchParams } from 'react-router';
import { UserPlus } from 'lucide-react';
import { signupRequestSchema, type SignupRequest } from '@strongroom/contracts/auth.ts';
import { defaultDepositProduct, depositProductOf, type DepositProduct } from '@strongroom/contracts/products.ts';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { ErrorDialog } from '../../../components/ui/error-dialog.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useSignUp } from '../api/sign-up.ts';
import { AuthScreen } from '../components/auth-screen.tsx';
import { NewPasswordFields } from '../components/new-password-fields.tsx';
import { SubmitWhenValid } from '../components/submit-when-valid.tsx';
import { passwordMatchCheck, passwordsMatch } from '../password-match.ts';
import { showServerFieldErrors } from '../../../lib/server-field-errors.ts';
import { SignupAccepted } from './signup-accepted.tsx';
import { SignInPrompt } from '../components/sign-in-prompt.tsx';
import './signup-page.css';

const signupFormSchema = signupRequestSchema.refine(passwordsMatch, passwordMatchCheck);

const fieldNames: readonly Path<SignupRequest>[] = ['firstName', 'lastName', 'email', 'password', 'confirmPassword', 'acceptTerms', 'referralCode'];

const termsLabel = (
  <>
    I accept the bank’s{' '}
    <Link to="/privacy" target="_blank">
      terms and conditions
    </Link>{' '}
    and its{' '}
    <Link to="/privacy" target="_blank">
      privacy policy
    </Link>
    .
  </>
);

/** The account chosen on a public page, the one opened beside it, and the way back to choose another. */
function ProductNotice({ product }: { product: DepositProduct }) {
  return (
    <Notice role="status">
      You are opening <strong>{product.name}</strong>, with {defaultDepositProduct(product.type === 'checking' ? 'savings' : 'checking').name} beside it. Both
      open once we have checked your identity. <Link to={product.type === 'checking' ? '/current' : '/savings'}>Choose another account</Link>
    </Notice>
  );
}

/**
 * /signup. The button turns on only when every field is valid (seed section 5) by the same schema
 * the server uses; what only the server knows (a common password) comes back under its field.
 */
export default function SignupPage() {
  const signUp = useSignUp();
  // A friend's invitation link (/signup?ref=CODE) carries their code; the server refuses one it does not know, under the field.
  const [searchParams] = useSearchParams();
  const referralCode = searchParams.get('ref')?.trim() ?? '';
  // The account chosen on a public page ("Open an account", /signup?product=gold-checking) opens as that product; an unknown one is left out.
  const product = depositProductOf(searchParams.get('product'));
  const [accepted, setAccepted] = useState<{ email: string; message: string } | null>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const form = useForm<SignupRequest>({
    resolver: zodResolver(signupFormSchema),
    mode: 'onTouched',
    defaultValues: { firstName: '', lastName: '', email: '', password: '', confirmPassword: '', ...(referralCode ? { referralCode } : {}) },
  });
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isValid },
  } = form;

  const onSubmit = handleSubmit((values) => {
    signUp.mutate(product ? { ...values, product: product.slug } : values, {
      onSuccess: (answer) => setAccepted({ email: values.email, message: answer.message }),
      onError: (error) => {
        if (!showServerFieldErrors(error, fieldNames, setError)) setDialogError(error.message);
      },
    });
  });

  if (accepted) return <SignupAccepted email={accepted.email} message={accepted.message} />;

  return (
    <AuthScreen
      title="Create your account"
      description="Open an account online in a few minutes."
      lead={<p>It takes a few minutes: your email address, your phone, an identity document and a photo.</p>}
    >
      <form className="auth-form" noValidate onSubmit={onSubmit}>
        {product ? <ProductNotice product={product} /> : null}
        <div className="signup-form__names">
          <TextField label="First name" autoComplete="given-name" required error={errors.firstName?.message} {...register('firstName')} />
          <TextField label="Last name" autoComplete="family-name" required error={errors.lastName?.message} {...register('lastName')} />
        </div>
        <TextField label="Email" type="email" inputMode="email" autoComplete="email" required error={errors.email?.message} {...register('email')} />
        <NewPasswordFields form={form} errors={errors} passwordLabel="Password" confirmLabel="Confirm password" reserveConfirmErrorSpace />
        {referralCode ? (
          <TextField
            label="Referral code"
            optional
            hint="From your friend’s invitation link. Clear it to sign up without one."
            autoComplete="off"
            error={errors.referralCode?.message}
            {...register('referralCode', { setValueAs: (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined) })}
          />
        ) : null}
        <Checkbox label={termsLabel} required error={errors.acceptTerms?.message} {...register('acceptTerms')} />
        <SubmitWhenValid
          valid={isValid}
          loading={signUp.isPending}
          hintId="signup-hint"
          hintClassName="auth-form__hint"
          hint="Fill in every field and accept the terms to continue."
        >
          <UserPlus aria-hidden="true" size={18} />
          Create account
        </SubmitWhenValid>
      </form>
      <SignInPrompt question="Already have an account?" />
      <ErrorDialog title="Sign-up failed" message={dialogError} onClose={() => setDialogError(null)} />
    </AuthScreen>
  );
}

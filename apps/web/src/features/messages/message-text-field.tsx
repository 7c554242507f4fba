import { secureMessageLimits } from '@strongroom/contracts/secure-messages.ts';
import { TextAreaField, type TextAreaFieldProps } from '../../components/ui/text-field.tsx';

const lengthHint = `Up to ${secureMessageLimits.textMaxLength.toLocaleString('en-US')} characters.`;

/** The message box of a new thread and of a reply: required, at most the contract's length, which its hint says first. */
export function MessageTextField({ hint, ...props }: Omit<TextAreaFieldProps, 'required' | 'maxLength'>) {
  return <TextAreaField {...props} hint={hint ? `${lengthHint} ${hint}` : lengthHint} required maxLength={secureMessageLimits.textMaxLength} />;
}

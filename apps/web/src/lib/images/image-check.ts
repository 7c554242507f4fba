import { businessConstants } from '@strongroom/contracts/constants.ts';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import { onboardingMessages } from '@strongroom/contracts/onboarding.ts';

/** The file picker's filter; the checks below are what count. */
export const imageAccept = businessConstants.imageTypes.join(',');

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const jpegSignature = [0xff, 0xd8, 0xff];

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return signature.every((byte, index) => bytes[index] === byte);
}

function readHead(file: File, length: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result instanceof ArrayBuffer ? new Uint8Array(reader.result) : new Uint8Array());
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsArrayBuffer(file.slice(0, length));
  });
}

/**
 * The server's upload rules (docs/product.md D3), checked before anything is sent so a wrong file is
 * refused at once, with the server's own messages: PNG or JPEG by declared type and by the first
 * bytes of the file (an SVG renamed .png is not a PNG), at most 5 MB. The server checks again.
 */
export async function imageProblem(file: File): Promise<string | undefined> {
  if (!businessConstants.imageTypes.some((type) => type === file.type)) return validationMessages.imageTypeInvalid;
  if (file.size > businessConstants.imageMaxBytes) return onboardingMessages.imageTooLarge;
  if (file.size === 0) return validationMessages.imageTypeInvalid;
  const head = await readHead(file, pngSignature.length);
  if (!startsWith(head, pngSignature) && !startsWith(head, jpegSignature)) return validationMessages.imageTypeInvalid;
  return undefined;
}

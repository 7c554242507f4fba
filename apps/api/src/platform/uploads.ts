import type { MultipartFile } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import { onboardingMessages } from '@strongroom/contracts/onboarding.ts';
import { AppError } from './errors.ts';

/** Limits on every multipart request (docs/product.md D3, ASVS 5.2.1). */
export const multipartLimits = {
  fileSize: businessConstants.imageMaxBytes,
  files: 1,
  fields: 10,
  fieldSize: 1_000,
  parts: 11,
  headerPairs: 50,
} as const;

/** A decompression bomb (a small file that decodes to billions of pixels) is refused before decoding. */
const maximumInputPixels = 50_000_000;

export interface ImageUpload {
  fields: Record<string, string>;
  image?: { fieldName: string; bytes: Buffer };
}

/**
 * A file part's bytes, stopping at the size limit: busboy truncates a file there, and reading on
 * (as `toBuffer()` does) would scan the rest of a 20 MB body for the boundary before answering.
 * Leaving the part at the first truncated chunk ends the parse; the 413 goes out at once.
 */
async function fileBytes(part: MultipartFile): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of part.file) {
    if (part.file.truncated) throw new AppError('payload_too_large', onboardingMessages.imageTooLarge);
    chunks.push(chunk as Buffer);
  }
  if (part.file.truncated) throw new AppError('payload_too_large', onboardingMessages.imageTooLarge);
  return Buffer.concat(chunks);
}

/** Reads a multipart form with at most one image; a file over 5 MB is a clear 413. */
export async function readImageForm(request: FastifyRequest): Promise<ImageUpload> {
  if (!request.isMultipart()) throw new AppError('unsupported_media_type', 'Send the form as multipart/form-data');
  const fields: Record<string, string> = {};
  let image: ImageUpload['image'];
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        image = { fieldName: part.fieldname, bytes: await fileBytes(part as MultipartFile) };
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('payload_too_large', onboardingMessages.imageTooLarge);
    if (code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT')
      throw new AppError('bad_request', 'The form has too many parts');
    throw error;
  }
  return { fields, image };
}

export interface CleanImage {
  bytes: Buffer;
  contentType: 'image/png' | 'image/jpeg';
}

/**
 * The type comes from the file's magic bytes, never its name or declared type. PNG and JPEG only;
 * the image is decoded and encoded again, which drops EXIF, GPS and anything hidden after the image.
 */
export async function cleanImage(fieldName: string, bytes: Buffer | undefined, options: { squareMaxPixels?: number } = {}): Promise<CleanImage> {
  if (!bytes || bytes.length === 0) {
    throw new AppError('validation_failed', 'Some fields are not valid', {
      fields: { [fieldName]: bytes ? validationMessages.imageTypeInvalid : onboardingMessages.imageMissing },
    });
  }
  const detected = await fileTypeFromBuffer(bytes);
  const contentType = detected?.mime === 'image/png' || detected?.mime === 'image/jpeg' ? detected.mime : undefined;
  if (!contentType) {
    throw new AppError('validation_failed', 'Some fields are not valid', { fields: { [fieldName]: validationMessages.imageTypeInvalid } });
  }
  try {
    let pipeline = sharp(bytes, { limitInputPixels: maximumInputPixels, failOn: 'error' }).rotate();
    if (options.squareMaxPixels) {
      const metadata = await sharp(bytes, { limitInputPixels: maximumInputPixels }).metadata();
      const side = Math.min(options.squareMaxPixels, metadata.width ?? options.squareMaxPixels, metadata.height ?? options.squareMaxPixels);
      pipeline = pipeline.resize({ width: side, height: side, fit: 'cover' });
    }
    const reencoded = contentType === 'image/png' ? await pipeline.png().toBuffer() : await pipeline.jpeg({ quality: 90, mozjpeg: true }).toBuffer();
    return { bytes: reencoded, contentType };
  } catch {
    throw new AppError('validation_failed', 'Some fields are not valid', { fields: { [fieldName]: validationMessages.imageTypeInvalid } });
  }
}

/**
 * Sends a stored image back: its own type (from the magic bytes at upload, never the client's), no
 * sniffing, a name the server made, and a CSP that forbids everything and sandboxes the answer, so
 * even a file a browser wrongly took for a page could run no script (OWASP file upload, ASVS 5.3.x).
 */
export function sendStoredImage(reply: FastifyReply, image: { bytes: Buffer; contentType: string; fileName: string }) {
  return reply
    .type(image.contentType)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('content-disposition', `inline; filename="${image.fileName}"`)
    .send(image.bytes);
}

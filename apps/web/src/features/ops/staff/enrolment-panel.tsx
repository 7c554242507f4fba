import type { StaffEnrolment } from '@strongroom/contracts/staff.ts';
import { Notice } from '../../../components/ui/notice.tsx';

/**
 * A second factor as the server answered it, once: the QR code (an SVG of our own server, shown as
 * an image, never as markup), the secret and the otpauth URI. Nothing keeps them after this panel closes.
 */
export function EnrolmentPanel({ enrolment, email }: { enrolment: StaffEnrolment; email: string }) {
  const qrSource = `data:image/svg+xml;base64,${btoa(enrolment.qrSvg)}`;
  return (
    <div className="enrolment-panel">
      <Notice tone="error" role="alert">
        Shown once. Scan it now or copy the secret: it cannot be shown again (a reset makes a new one).
      </Notice>
      <img src={qrSource} alt={`QR code of the authenticator secret for ${email}`} width={200} height={200} />
      <dl>
        <dt>Secret (base32)</dt>
        <dd>
          <code>{enrolment.totpSecret}</code>
        </dd>
        <dt>otpauth URI</dt>
        <dd>
          <code className="enrolment-panel__uri">{enrolment.otpauthUri}</code>
        </dd>
      </dl>
    </div>
  );
}

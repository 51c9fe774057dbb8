/**
 * A QR code of a sync address, for a phone's camera: an SVG made here in the core with the
 * `qrcode` library (pinned), handed to the UI as a data: URL (the window's policy allows data:
 * images; no script, no network). Dark modules on white whatever the theme: cameras need the
 * contrast. Made once per address.
 */
import QRCode from 'qrcode';

const cache = new Map<string, Promise<string>>();

export function qrDataUrl(text: string): Promise<string> {
  let made = cache.get(text);
  if (!made) {
    made = QRCode.toString(text, {
      type: 'svg',
      errorCorrectionLevel: 'M',
      margin: 4,
      color: { dark: '#000000', light: '#ffffff' },
    }).then((svg) => `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`);
    cache.set(text, made);
    // A handful of addresses at most in a session; a failure is not kept.
    made.catch(() => cache.delete(text));
  }
  return made;
}

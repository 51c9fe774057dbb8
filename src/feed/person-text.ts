/**
 * A person written as one string (RSS <author>, dc:creator): "email (Name)" by the RSS spec,
 * and in the wild "Name (email)", "Name <email>", a bare email, or just a name.
 */
import type { Person } from './model.ts';
import { person } from './model-new.ts';

const EMAIL = '[^\\s()<>]+@[^\\s()<>]+';
const EMAIL_THEN_NAME = new RegExp(`^(?:mailto:)?(${EMAIL})\\s*\\((.+)\\)$`, 'i');
const NAME_THEN_EMAIL_PARENS = new RegExp(`^(.+?)\\s*\\((?:mailto:)?(${EMAIL})\\)$`, 'i');
const NAME_THEN_EMAIL_ANGLE = new RegExp(`^(.+?)\\s*<(?:mailto:)?(${EMAIL})>$`, 'i');
const BARE_EMAIL = new RegExp(`^[(<]?(?:mailto:)?(${EMAIL})[)>]?$`, 'i');

export function parsePersonText(s: string): Person {
  const t = s.trim();
  let m = EMAIL_THEN_NAME.exec(t);
  if (m) return person(m[2]!.trim(), m[1]!);
  m = NAME_THEN_EMAIL_PARENS.exec(t) ?? NAME_THEN_EMAIL_ANGLE.exec(t);
  if (m) return person(m[1]!.replace(/^"|"$/g, '').trim(), m[2]!);
  m = BARE_EMAIL.exec(t);
  if (m) return person(null, m[1]!);
  return person(t);
}

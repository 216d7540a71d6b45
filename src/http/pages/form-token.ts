// Cross-site request forgery: every form a page posts to itself carries a form token, and a POST is
// accepted only when the token in its body is the one in the browser's form cookie (a double-submit
// token; stateless, so any instance accepts what another served). Another site can make a browser
// send the cookie but can neither read it nor set it, so it cannot write the matching field: on https
// the cookie is `__Host-` (never set by a subdomain). A POST that names another site in Origin, or
// that the browser says came from one (Sec-Fetch-Site), is refused before the token is compared.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors.ts';
import { originAllowed } from '../origin.ts';
import { html, type Html } from './html.ts';

/** The form field that carries the token. */
export const FORM_TOKEN_FIELD = 'form_token';

const SHAPE = /^[A-Za-z0-9_-]{43}$/;
/** A day: a page left open that long asks to be reloaded before its form is sent. */
const MAX_AGE_S = 86_400;

const cookieName = (base: string) => (base.startsWith('https:') ? '__Host-rc_form' : 'rc_form');

function cookieOf(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export interface FormToken {
  token: string;
  /** The Set-Cookie header that holds it in the browser (renewed with every form served). */
  cookie: string;
}

/** The token for this request's forms: the browser's own when it sent a well-formed one, else a new one. */
export function formToken(request: FastifyRequest, base: string): FormToken {
  const name = cookieName(base);
  const held = cookieOf(request, name);
  const token = held && SHAPE.test(held) ? held : randomBytes(32).toString('base64url');
  // HttpOnly: no script reads it; SameSite=Lax: another site's POST does not even carry it.
  const cookie = `${name}=${token}; Path=/; Max-Age=${MAX_AGE_S}; HttpOnly; SameSite=Lax${base.startsWith('https:') ? '; Secure' : ''}`;
  return { token, cookie };
}

/** The hidden field a form carries. */
export const formTokenField = (t: FormToken): Html => html`<input type="hidden" name="${FORM_TOKEN_FIELD}" value="${t.token}">`;

const refused = (why: string) =>
  new AppError(403, 'form_token_invalid', `this form was not accepted: ${why}. Reload the page and send the form again from there.`, FORM_TOKEN_FIELD);

/** Throws the 403 `form_token_invalid` unless the POST came from a form this site served to this browser. */
export function checkFormToken(request: FastifyRequest, base: string, body: unknown): void {
  if (request.headers['sec-fetch-site'] === 'cross-site') throw refused('it was sent from another site');
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== 'null' && !originAllowed(origin, base)) throw refused('it was sent from another site');
  const given = (body as Record<string, unknown> | null | undefined)?.[FORM_TOKEN_FIELD];
  if (typeof given !== 'string' || given === '') throw refused('it carries no form token');
  const held = cookieOf(request, cookieName(base));
  if (!held) throw refused('this browser holds no form cookie for it (cookies may be blocked, or it expired)');
  if (!SHAPE.test(given) || !SHAPE.test(held) || !timingSafeEqual(Buffer.from(given), Buffer.from(held))) throw refused('its form token is not the one this browser was given');
}

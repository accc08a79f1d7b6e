// Who may use the admin API: it reads, seeds and wipes state, so beyond this machine it needs a
// token (as Mockoon's admin API does). On loopback it stays open unless a token is given.
import { bearerToken } from '../request/bearer-token.ts';
import { sha256Hex } from '../../platform/host.ts';
import type { HttpRequest } from '../../http/types.ts';

export type AdminAccess = { ok: true } | { ok: false; message: string };

/** Whether `host` (as given to --host) only accepts connections from this machine. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare) || bare === '::ffff:127.0.0.1';
}

/** The check every admin request goes through, decided once from the options. */
export function createAdminAccess(host: string, adminToken: string | null): (request: HttpRequest) => AdminAccess {
  if (adminToken === null) {
    if (isLoopback(host)) return () => ({ ok: true });
    const locked: AdminAccess = {
      ok: false,
      message:
        `the admin API is locked: the mock listens on ${host}, beyond this machine, and no admin token was ` +
        `given; start it with --admin-token TOKEN (or PLANTSTORE_ADMIN_TOKEN) and send "Authorization: Bearer ` +
        `TOKEN", or with --no-admin`,
    };
    return () => locked;
  }
  // Compared as digests: an early exit on the first differing character says nothing about the token.
  const want = sha256Hex(adminToken);
  const refused: AdminAccess = {
    ok: false,
    message:
      'the admin API needs "Authorization: Bearer <admin token>" (the --admin-token or PLANTSTORE_ADMIN_TOKEN the ' +
      'mock was started with)',
  };
  return (request) => {
    const token = bearerToken(request.headers.authorization);
    if (token === undefined) return refused;
    return sha256Hex(token) === want ? { ok: true } : refused;
  };
}

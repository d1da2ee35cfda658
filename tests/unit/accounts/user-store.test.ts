import { beforeEach, describe, expect, it } from 'vitest';
import { $user, setUser, type User } from '../../../site/stores/user.ts';

// The store keeps the profile in localStorage; Node has none, so a Map stands in.
const storage = new Map<string, string>();
globalThis.localStorage = {
  getItem: (k: string) => storage.get(k) ?? null,
  setItem: (k: string, v: string) => void storage.set(k, v),
  removeItem: (k: string) => void storage.delete(k),
  clear: () => storage.clear(),
  key: () => null,
  length: 0,
} as Storage;

const partial = { id: 'u1', email: 'ana@example.com', firstName: '', lastName: '' } as unknown as User;

describe('setUser fills missing profile fields as SPEC.md section 3 says', () => {
  beforeEach(() => storage.clear());

  it('after a token check: every missing field is Unknown', () => {
    setUser(partial);
    expect($user.get()).toMatchObject({ firstName: 'Unknown', lastName: 'Unknown', phone: 'Unknown', city: 'Unknown', email: 'ana@example.com' });
    expect(JSON.parse(storage.get('user')!)).toMatchObject({ firstName: 'Unknown', lastName: 'Unknown' });
  });

  it('after a login: missing fields are empty, and the name is Unknown User', () => {
    setUser(partial, 'login');
    expect($user.get()).toMatchObject({ firstName: 'Unknown', lastName: 'User', phone: '', city: '', zipcode: '', email: 'ana@example.com' });
  });

  it('keeps what is there', () => {
    setUser({ ...partial, firstName: 'Ana', lastName: 'Lima', phone: '5035550101' }, 'login');
    expect($user.get()).toMatchObject({ firstName: 'Ana', lastName: 'Lima', phone: '5035550101' });
  });
});

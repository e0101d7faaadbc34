/** Each known way bwrap fails maps to its cause and the one fix that applies. */
import { describe, expect, it } from 'vitest';
import { diagnoseBwrap } from '../../src/sandbox/diagnose.js';

const sysctls = (values: Record<string, string>) => (name: string) => values[name];

describe('diagnoseBwrap', () => {
  it('Ubuntu 24.04\'s AppArmor restriction, by its message or by the sysctl', () => {
    const byMessage = diagnoseBwrap('bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted\n', { sysctl: sysctls({}), container: false });
    expect(byMessage.cause).toContain('AppArmor');
    expect(byMessage.fix).toContain('apparmor_parser -r /etc/apparmor.d/bwrap');
    const bySysctl = diagnoseBwrap('bwrap: setting up uid map: Permission denied', {
      sysctl: sysctls({ 'kernel.apparmor_restrict_unprivileged_userns': '1' }),
      container: false,
    });
    expect(bySysctl.cause).toContain('kernel.apparmor_restrict_unprivileged_userns = 1');
  });

  it('user namespaces switched off: Debian\'s switch, or a zero namespace limit', () => {
    const debian = diagnoseBwrap('bwrap: No permissions to creating new namespace', { sysctl: sysctls({ 'kernel.unprivileged_userns_clone': '0' }), container: false });
    expect(debian.cause).toContain('kernel.unprivileged_userns_clone = 0');
    expect(debian.fix).toContain('sudo sysctl -w kernel.unprivileged_userns_clone=1');
    const limit = diagnoseBwrap('bwrap: Creating new namespace failed: No space left on device', { sysctl: sysctls({ 'user.max_user_namespaces': '0' }), container: false });
    expect(limit.fix).toContain('user.max_user_namespaces=15000');
  });

  it('a container without the mounts it needs', () => {
    const d = diagnoseBwrap('bwrap: Failed to make / slave: Operation not permitted', { sysctl: sysctls({}), container: true });
    expect(d.cause).toContain('inside a container');
    expect(d.cause).toContain('Failed to make / slave');
    expect(d.fix).toContain('--cap-add SYS_ADMIN');
  });

  it('anything else: what bwrap said, with control characters escaped', () => {
    const d = diagnoseBwrap('bwrap: something new \u001b[31mred\n', { sysctl: sysctls({}), container: false });
    expect(d.cause).toContain('bwrap failed to start a sandbox');
    expect(d.cause).not.toContain('\u001b');
  });
});

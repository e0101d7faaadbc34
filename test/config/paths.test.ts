import { describe, expect, it } from 'vitest';
import { appPaths } from '../../src/config/paths.js';

describe('appPaths', () => {
  it('uses the XDG variables when they are absolute', () => {
    const p = appPaths({ HOME: '/h', XDG_CONFIG_HOME: '/c', XDG_DATA_HOME: '/d', XDG_CACHE_HOME: '/k' });
    expect(p.userConfigFile).toBe('/c/lindwyrm/config.toml');
    expect(p.sessionsDir).toBe('/d/lindwyrm/sessions');
    expect(p.offloadDir).toBe('/d/lindwyrm/offload');
    expect(p.codeMapCacheDir).toBe('/k/lindwyrm/codemap');
  });

  it('falls back to the defaults under HOME, ignoring relative XDG values', () => {
    const p = appPaths({ HOME: '/h', XDG_CONFIG_HOME: 'relative' });
    expect(p.userConfigFile).toBe('/h/.config/lindwyrm/config.toml');
    expect(p.userInstructionsFile).toBe('/h/.config/lindwyrm/AGENTS.md');
    expect(p.dataDir).toBe('/h/.local/share/lindwyrm');
  });

  it('treats empty XDG values as unset', () => {
    const p = appPaths({ HOME: '/h', XDG_CONFIG_HOME: '', XDG_DATA_HOME: '', XDG_CACHE_HOME: '' });
    expect(p.userConfigFile).toBe('/h/.config/lindwyrm/config.toml');
    expect(p.sessionsDir).toBe('/h/.local/share/lindwyrm/sessions');
    expect(p.codeMapCacheDir).toBe('/h/.cache/lindwyrm/codemap');
  });
});

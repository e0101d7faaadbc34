import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { makeTempEnv, type TempEnv } from './temp-env.js';

let t: TempEnv;
beforeEach(async () => {
  t = await makeTempEnv();
});
afterEach(async () => {
  await t.cleanup();
});

describe('[[mcp.servers]]', () => {
  it('reads stdio and HTTP servers, env from named variables, and the per-server rules', async () => {
    await t.writeUser(`mcp_schema_budget = 3000
[[mcp.servers]]
name = "gh"
command = "npx"
args = ["-y", "server"]
env = { GITHUB_TOKEN = "\${GH_TOKEN}", DEBUG = "1" }
allow = ["get_*"]
deny = "delete_*"

[[mcp.servers]]
name = "docs"
url = "https://mcp.example/mcp"
headers = { Authorization = "Bearer \${file:~/docs.key}" }
`);
    const config = await loadConfig({ cwd: t.project, env: t.env });
    expect(config.mcpSchemaBudget).toBe(3000);
    expect(config.mcpServers?.map((s) => [s.name, s.origin, s.command ?? s.url])).toEqual([
      ['gh', 'user', 'npx'],
      ['docs', 'user', 'https://mcp.example/mcp'],
    ]);
    expect(config.mcpServers?.[0]).toMatchObject({ env: { GITHUB_TOKEN: '${GH_TOKEN}', DEBUG: '1' }, allow: ['get_*'], deny: ['delete_*'] });
  });

  it('takes [mcp.servers.NAME] tables, the name from the key', async () => {
    await t.writeUser('[mcp.servers.github]\ncommand = "gh-mcp"\nallow = ["get_*"]\n');
    const config = await loadConfig({ cwd: t.project, env: t.env });
    expect(config.mcpServers?.[0]).toMatchObject({ name: 'github', command: 'gh-mcp', allow: ['get_*'] });
  });

  it('refuses a secret written into the file, naming the key and the fix', async () => {
    await t.writeUser('[[mcp.servers]]\nname = "gh"\ncommand = "x"\nenv = { GITHUB_TOKEN = "ghp_abc123" }\n');
    await expect(loadConfig({ cwd: t.project, env: t.env })).rejects.toThrow(/mcp\.servers\[0\]\.env\.GITHUB_TOKEN.*"\$\{VARIABLE\}"/);
    await t.writeUser('[[mcp.servers]]\nname = "d"\nurl = "https://x.example/mcp"\nheaders = { Authorization = "Bearer abc" }\n');
    await expect(loadConfig({ cwd: t.project, env: t.env })).rejects.toThrow(/headers\.Authorization/);
  });

  it('refuses a name with "__", and an entry with both command and url', async () => {
    await t.writeUser('[[mcp.servers]]\nname = "a__b"\ncommand = "x"\n');
    await expect(loadConfig({ cwd: t.project, env: t.env })).rejects.toThrow(/no "__"/);
    await t.writeUser('[[mcp.servers]]\nname = "a"\ncommand = "x"\nurl = "https://x.example"\n');
    await expect(loadConfig({ cwd: t.project, env: t.env })).rejects.toThrow(/either command/);
  });

  it('keeps a trusted project\'s servers, marked as the project\'s, and never lets one replace the user\'s', async () => {
    await t.writeUser(`trusted_projects = ["${t.project}"]\n[[mcp.servers]]\nname = "gh"\ncommand = "mine"\n`);
    await t.writeProject('[[mcp.servers]]\nname = "gh"\ncommand = "theirs"\n[[mcp.servers]]\nname = "lint"\ncommand = "./tools/lint-mcp"\n');
    const config = await loadConfig({ cwd: t.project, env: t.env });
    expect(config.mcpServers?.map((s) => [s.name, s.origin, s.command])).toEqual([
      ['gh', 'user', 'mine'],
      ['lint', 'project', `${t.project}/tools/lint-mcp`],
    ]);
    expect(config.warnings.join('\n')).toMatch(/"gh" is also in your user config/);
  });
});

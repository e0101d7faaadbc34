/**
 * The bridge inside a network-less sandbox: a few lines of Node (the same node that runs
 * lindwyrm, visible read-only inside) that listen on the sandbox's own loopback and pass each
 * connection to the egress proxy's unix socket, then run the command as their child and exit
 * with its status. Passed with `node -e`, so no file of it lies where a command could edit it.
 */

/** The proxy's port on the sandbox's own loopback. */
export const SANDBOX_PROXY_PORT = 3128;

export const FORWARDER_SOURCE = `
const net = require('node:net');
const { spawn } = require('node:child_process');
const [socketPath, port, ...command] = process.argv.slice(1);
const server = net.createServer((inside) => {
  const out = net.connect(socketPath);
  inside.pipe(out);
  out.pipe(inside);
  inside.on('error', () => out.destroy());
  out.on('error', () => inside.destroy());
});
server.on('error', (e) => {
  process.stderr.write('lindwyrm sandbox: the network bridge could not start: ' + e.message + '\\n');
  process.exit(126);
});
server.listen(Number(port), '127.0.0.1', () => {
  const child = spawn(command[0], command.slice(1), { stdio: 'inherit' });
  for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => child.kill(s));
  child.on('error', (e) => {
    process.stderr.write(command[0] + ': ' + e.message + '\\n');
    process.exit(127);
  });
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.exit(code === null ? 1 : code);
  });
});
`;

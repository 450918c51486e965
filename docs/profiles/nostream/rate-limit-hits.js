#!/usr/bin/env node
// The profile's control_check: prints `zadd_calls=N`, how many ZADD commands the Redis server has
// run since it started (INFO commandstats). nostream's sliding-window rate limiter is the only
// thing in it that calls ZADD (one per rule hit), and the count never goes down (keys expiring do
// not lower it), so a control arm that never touched the limiter prints the same before and after
// each cell. It asks Redis directly, never through the rig's proxy, so it adds no turns to the
// `cache` link. No dependencies: RESP over a plain socket.
//   node rate-limit-hits.js HOST PORT
'use strict';

const net = require('net');

const [host, port] = process.argv.slice(2);
if (host === undefined || !/^[0-9]+$/.test(port ?? '') || process.argv.length !== 4) {
  process.stderr.write('usage: node rate-limit-hits.js HOST PORT\n');
  process.exit(2);
}
const socket = net.connect({ host, port: Number(port) });
let reply = '';
const timer = setTimeout(() => {
  process.stderr.write(`no answer from Redis at ${host}:${port} within 10 s\n`);
  process.exit(1);
}, 10000);
socket.on('connect', () => socket.write('*2\r\n$4\r\nINFO\r\n$12\r\ncommandstats\r\n'));
socket.on('data', (chunk) => {
  reply += chunk.toString('utf8');
  // A bulk string: $LEN\r\n then LEN bytes then \r\n.
  const m = /^\$([0-9]+)\r\n/.exec(reply);
  if (m && Buffer.byteLength(reply) >= m[0].length + Number(m[1]) + 2) {
    clearTimeout(timer);
    socket.end();
    const calls = /^cmdstat_zadd:calls=([0-9]+)/m.exec(reply);
    process.stdout.write(`zadd_calls=${calls ? calls[1] : 0}\n`);
  } else if (reply.startsWith('-')) {
    process.stderr.write(`Redis answered: ${reply.trim()}\n`);
    process.exit(1);
  }
});
socket.on('error', (e) => {
  process.stderr.write(`cannot reach Redis at ${host}:${port}: ${e.message}\n`);
  process.exit(1);
});

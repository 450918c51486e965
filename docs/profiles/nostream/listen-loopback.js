// Preloaded into every nostream process (NODE_OPTIONS=--require ...): pins each TCP listen to
// 127.0.0.1. nostream calls `listen(port)` with no host, which Node binds to every interface, and
// it has no setting for the address; the rig may only run a relay that listens on loopback, and
// patching one method at start-up keeps nostream's own source unmodified. The cluster's workers
// inherit NODE_OPTIONS, so their listen is pinned too (the primary binds on their behalf with the
// address they ask for). A Unix-socket path or an inherited handle is passed through unchanged.
'use strict';

const net = require('net');

const LOOPBACK = '127.0.0.1';
const original = net.Server.prototype.listen;

function isPort(value) {
  return typeof value === 'number' || (typeof value === 'string' && /^[0-9]+$/.test(value));
}

net.Server.prototype.listen = function listenOnLoopback(...args) {
  const first = args[0];
  if (first === undefined || typeof first === 'function') {
    // listen() or listen(callback): an ephemeral port, on loopback.
    return original.call(this, 0, LOOPBACK, ...args);
  }
  if (isPort(first)) {
    // listen(port[, host][, backlog][, callback]): any host given is replaced.
    const rest = args.slice(1);
    if (typeof rest[0] === 'string' || rest[0] === null) {
      rest.shift();
    }
    return original.call(this, Number(first), LOOPBACK, ...rest);
  }
  if (first !== null && typeof first === 'object' && first.path === undefined
      && first.fd === undefined && first._handle === undefined && first.handle === undefined) {
    // listen({port, host, ...}[, callback])
    return original.call(this, { ...first, host: LOOPBACK }, ...args.slice(1));
  }
  return original.apply(this, args);
};

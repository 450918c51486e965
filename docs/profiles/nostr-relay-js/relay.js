#!/usr/bin/env node
// Serves CodyTseng's @nostr-relay/core (a relay nobody on this project wrote) on a loopback port
// the rig gives, with the package's own SQLite event repository. The treatment arm registers
// AuditPlugin through the relay's own plugin interface; the control arm does not.
//
//   node relay.js --port N --data-dir DIR --audit on|off --audit-delay-ms D --rig-id ID
//
// The treatment under test is a synchronous audit write on a slow disk: per accepted event, an
// INSERT into its own SQLite file with synchronous=FULL, then a blocking wait of D ms (the profile's
// audit_delay_ms, default 40), both on the OK path. The wait is what makes the A/B reproducible:
// an fsync alone cost 1.4 ms in one quiet run and 6 ms in the next on the same machine, so a grid
// placed from it landed above the control's ceiling in one run and barely above the treatment's in
// the other. With the wait, the treatment's ceiling is at most 1000/D events/s whatever the disk
// and the load do (a loaded machine only oversleeps, which lowers it further), far below the
// control's (hundreds per second), so a rate between them saturates one arm and not the other.
// D = 0 measures the bare fsync'd INSERT.
//
// Prints one line "READY port=.. audit=.. audit_write_ms=.." once it listens, which the rig reads
// into relay_info. audit_write_ms is the mean of a few audit inserts into a scratch file at start;
// predicted_worker_ceiling_per_s = 1000 / (D + audit_write_ms) places `ceiling experiment`'s auto
// grid, and audit_ceiling_bound_per_s = 1000 / D is the bound no measurement can exceed.
'use strict';

const fs = require('fs');
const path = require('path');
const { WebSocketServer } = require('ws');
const BetterSqlite3 = require('better-sqlite3');
const { NostrRelay } = require('@nostr-relay/core');
const { EventRepositorySqlite } = require('@nostr-relay/event-repository-sqlite');
const { Validator } = require('@nostr-relay/validator');
const { createOutgoingNoticeMessage } = require('@nostr-relay/common');

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i];
    const value = argv[i + 1];
    if (!key.startsWith('--') || value === undefined) {
      fail(`bad argument '${key}': expected --name value pairs`);
    }
    out[key.slice(2)] = value;
  }
  for (const required of ['port', 'data-dir', 'audit', 'audit-delay-ms', 'rig-id']) {
    if (out[required] === undefined) {
      fail(`missing --${required}`);
    }
  }
  if (out.audit !== 'on' && out.audit !== 'off') {
    fail(`--audit must be on or off, got '${out.audit}'`);
  }
  const port = Number(out.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    fail(`--port must be an integer in [1, 65535], got '${out.port}'`);
  }
  out.port = port;
  const delayMs = Number(out['audit-delay-ms']);
  if (!Number.isFinite(delayMs) || delayMs < 0 || delayMs > 10000) {
    fail(`--audit-delay-ms must be a number in [0, 10000], got '${out['audit-delay-ms']}'`);
  }
  out['audit-delay-ms'] = delayMs;
  return out;
}

function fail(message) {
  process.stderr.write(`relay.js: ${message}\n`);
  process.exit(2);
}

/**
 * Opens the audit log: its own SQLite file, rollback journal, synchronous=FULL, so every INSERT
 * is durable (fsync'd) before it returns.
 */
function openAudit(file) {
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = DELETE');
  db.pragma('synchronous = FULL');
  db.exec(
    'CREATE TABLE IF NOT EXISTS audit (event_id TEXT NOT NULL, pubkey TEXT NOT NULL,' +
      ' kind INTEGER NOT NULL, audited_at_ms INTEGER NOT NULL)',
  );
  return db;
}

// Atomics.wait on a private buffer: a blocking sleep that holds the event loop like a synchronous
// write does, without burning a core (a busy-wait would slow the generator beside it).
const SLEEPER = new Int32Array(new SharedArrayBuffer(4));

function blockFor(ms) {
  if (ms > 0) {
    Atomics.wait(SLEEPER, 0, 0, ms);
  }
}

/**
 * The treatment: a BroadcastPlugin (see @nostr-relay/common plugin.interface.d.ts). The relay's
 * EventService calls broadcast() for every accepted, non-duplicate event after storing it and
 * awaits it before handleEvent returns, and the OK is sent only after handleEvent returns: so this
 * write sits on the OK path of every accepted event, synchronously (better-sqlite3 blocks the
 * event loop for the fsync).
 */
class AuditPlugin {
  constructor(db, delayMs) {
    this.delayMs = delayMs;
    this.insert = db.prepare(
      'INSERT INTO audit (event_id, pubkey, kind, audited_at_ms) VALUES (?, ?, ?, ?)',
    );
  }

  async broadcast(event, next) {
    this.insert.run(event.id, event.pubkey, event.kind, Date.now());
    blockFor(this.delayMs); // the slow disk: see the header
    return next();
  }
}

function calibrate(dataDir) {
  const file = path.join(dataDir, 'audit-calibration.sqlite');
  fs.rmSync(file, { force: true });
  const db = openAudit(file);
  const plugin = new AuditPlugin(db, 0);
  const runs = 20;
  const start = process.hrtime.bigint();
  for (let i = 0; i < runs; i++) {
    plugin.insert.run('calibration-' + i, 'calibration', 1, Date.now());
  }
  const ms = Number(process.hrtime.bigint() - start) / 1e6 / runs;
  db.close();
  fs.rmSync(file, { force: true });
  return ms;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  fs.mkdirSync(args['data-dir'], { recursive: true });
  const auditWriteMs = calibrate(args['data-dir']);
  const repository = new EventRepositorySqlite(path.join(args['data-dir'], 'events.sqlite'));
  await repository.init(); // creates the tables (kysely migrations) before the first client
  const relay = new NostrRelay(repository, { logLevel: 3 });
  let auditDb = null;
  if (args.audit === 'on') {
    auditDb = openAudit(path.join(args['data-dir'], 'audit.sqlite'));
    relay.register(new AuditPlugin(auditDb, args['audit-delay-ms']));
  }
  const validator = new Validator();
  const wss = new WebSocketServer({ host: '127.0.0.1', port: args.port });

  // The package's README wiring: validate, hand to the relay, answer a NOTICE for what fails.
  wss.on('connection', ws => {
    relay.handleConnection(ws);
    ws.on('message', async data => {
      try {
        const message = await validator.validateIncomingMessage(data);
        await relay.handleMessage(ws, message);
      } catch (error) {
        if (error instanceof Error) {
          ws.send(JSON.stringify(createOutgoingNoticeMessage(error.message)));
        }
      }
    });
    ws.on('close', () => relay.handleDisconnect(ws));
    ws.on('error', error => {
      process.stderr.write(`relay.js: websocket error: ${error.message}\n`);
    });
  });
  wss.on('error', error => {
    fail(`cannot listen on 127.0.0.1:${args.port}: ${error.message}`);
  });
  wss.on('listening', () => {
    // predicted_worker_ceiling_per_s: the most events/s one synchronous audit write per event
    // allows (the treatment's ceiling can only be lower), for rates chosen from it.
    const delayMs = args['audit-delay-ms'];
    const bound = delayMs > 0 ? ` audit_ceiling_bound_per_s=${(1000 / delayMs).toFixed(1)}` : '';
    process.stdout.write(
      `READY port=${args.port} audit=${args.audit} audit_write_ms=${auditWriteMs.toFixed(3)}` +
        ` audit_delay_ms=${delayMs}` +
        ` predicted_worker_ceiling_per_s=${(1000 / (delayMs + auditWriteMs)).toFixed(1)}` +
        bound +
        ` relay=@nostr-relay/core@0.0.40 node=${process.version}\n`,
    );
  });

  const stop = () => {
    wss.close();
    for (const client of wss.clients) {
      client.terminate();
    }
    relay.destroy().finally(() => {
      if (auditDb !== null) {
        auditDb.close();
      }
      repository.destroy().finally(() => process.exit(0));
    });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch(error => fail(`cannot start: ${error.stack || error}`));

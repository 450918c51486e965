#!/usr/bin/env node
// Serves CodyTseng's @nostr-relay/core (a relay nobody on this project wrote) on a loopback port
// the rig gives, with the package's own SQLite event repository. The treatment arm registers
// AuditPlugin through the relay's own plugin interface; the control arm does not.
//
//   node relay.js --port N --data-dir DIR --audit on|off --rig-id ID
//
// Prints one line "READY port=.. audit=.. audit_write_ms=.." once it listens, which the rig reads
// into relay_info. audit_write_ms is the mean of a few audit inserts into a scratch file at start:
// the treatment arm's per-event cost, from which a test picks rates around the audit ceiling.
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
  for (const required of ['port', 'data-dir', 'audit', 'rig-id']) {
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

/**
 * The treatment: a BroadcastPlugin (see @nostr-relay/common plugin.interface.d.ts). The relay's
 * EventService calls broadcast() for every accepted, non-duplicate event after storing it and
 * awaits it before handleEvent returns, and the OK is sent only after handleEvent returns: so this
 * write sits on the OK path of every accepted event, synchronously (better-sqlite3 blocks the
 * event loop for the fsync).
 */
class AuditPlugin {
  constructor(db) {
    this.insert = db.prepare(
      'INSERT INTO audit (event_id, pubkey, kind, audited_at_ms) VALUES (?, ?, ?, ?)',
    );
  }

  async broadcast(event, next) {
    this.insert.run(event.id, event.pubkey, event.kind, Date.now());
    return next();
  }
}

function calibrate(dataDir) {
  const file = path.join(dataDir, 'audit-calibration.sqlite');
  fs.rmSync(file, { force: true });
  const db = openAudit(file);
  const plugin = new AuditPlugin(db);
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
    relay.register(new AuditPlugin(auditDb));
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
    process.stdout.write(
      `READY port=${args.port} audit=${args.audit} audit_write_ms=${auditWriteMs.toFixed(3)}` +
        ` predicted_worker_ceiling_per_s=${(1000 / auditWriteMs).toFixed(1)}` +
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

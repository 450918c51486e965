#!/usr/bin/env node
// Prints what the relay stored, for checking the generator's counts against ground truth:
//   node count-rows.js DATA_DIR         ->   events=N audit=M   (audit=absent without the file)
//   node count-rows.js DATA_DIR audit   ->   audit=M            (the profile's control_check: the
//                                             control arm's audit table must not change)
// Opens the files read-only, so it may run while the relay is up.
'use strict';

const fs = require('fs');
const path = require('path');
const BetterSqlite3 = require('better-sqlite3');

function count(file, table) {
  if (!fs.existsSync(file)) {
    return 'absent';
  }
  const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    return String(db.prepare(`SELECT count(*) AS n FROM ${table}`).get().n);
  } finally {
    db.close();
  }
}

const dir = process.argv[2];
const only = process.argv[3];
if (dir === undefined || process.argv.length > 4 || (only !== undefined && only !== 'audit')) {
  process.stderr.write('usage: node count-rows.js DATA_DIR [audit]\n');
  process.exit(2);
}
const audit = `audit=${count(path.join(dir, 'audit.sqlite'), 'audit')}`;
if (only === 'audit') {
  process.stdout.write(`${audit}\n`);
} else {
  process.stdout.write(`events=${count(path.join(dir, 'events.sqlite'), 'events')} ${audit}\n`);
}

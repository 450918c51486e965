#!/usr/bin/env bash
# Fails when the consumer example's build output holds a warning its user did nothing to cause:
# SLF4J's "no providers" lines (a library's logging left unbound in the example). It also requires
# the example's own test lines, so an empty or truncated log cannot pass.
set -euo pipefail
log="${1:?usage: check-quiet.sh BUILD_LOG}"
[[ -s "$log" ]] || { echo "consumer quiet check: $log is missing or empty" >&2; exit 1; }
grep -q "BUILD SUCCESS" "$log" || { echo "consumer quiet check: no BUILD SUCCESS in $log" >&2; exit 1; }
if grep -n "SLF4J(W)" "$log" >&2; then
  echo "consumer quiet check: the example's build printed SLF4J warnings (lines above, from $log)" >&2
  exit 1
fi
echo "consumer quiet check: no SLF4J warnings in the example's build"

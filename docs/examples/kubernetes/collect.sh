#!/usr/bin/env bash
# Collects the segment reports of one generator Job (the lines starting CEILING_REPORT) into
# DIR/segment-<index>.json, then merges them with `ceiling merge`. Usage:
#   docs/examples/kubernetes/collect.sh RUN_ID DIR
set -euo pipefail
run_id="$1"
dir="$2"
mkdir -p "$dir"
kubectl wait --for=condition=complete --timeout=30m "job/ceiling-generators-$run_id"
for pod in $(kubectl get pods -l "ceiling.dev/run=$run_id" -o name); do
  index="$(kubectl get "$pod" -o jsonpath='{.metadata.annotations.batch\.kubernetes\.io/job-completion-index}')"
  kubectl logs "$pod" | grep '^CEILING_REPORT ' | tail -n 1 | cut -d' ' -f2- > "$dir/segment-$index.json"
done
scripts/ceiling merge "$dir"/segment-*.json --json "$dir/merged.json"

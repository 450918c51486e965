#!/usr/bin/env bash
# Fails when a consumer's resolved test classpath (one line, ':'-separated, as written by
# maven-dependency-plugin's build-classpath) holds a jar an embedding project must not get:
# picocli and uPlot (the report pages' chart script) belong to the CLI, H2 and the PostgreSQL
# driver to the reference relay.
# It also requires the embedding API itself, so an empty or wrong file cannot pass.
set -euo pipefail
file="${1:?usage: check-classpath.sh CLASSPATH_FILE}"
[[ -s "$file" ]] || { echo "consumer classpath check: $file is missing or empty" >&2; exit 1; }
mapfile -t jars < <(tr ':' '\n' < "$file")
bad=()
for jar in "${jars[@]}"; do
  case "$(basename "$jar")" in
    picocli-*|uplot-*|h2-*|postgresql-*|ceiling-cli-*|ceiling-reference-relay-*)
      bad+=("$jar") ;;
  esac
done
if ((${#bad[@]} > 0)); then
  echo "consumer classpath check: the example's test classpath holds jars an embedding project must not get:" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
# A loop, not `printf | grep -q`: under pipefail, grep -q leaving at the first match can end
# printf with SIGPIPE, and the pipeline then fails although the jar is there.
has_jar() {
  local jar
  for jar in "${jars[@]}"; do
    [[ "${jar##*/}" == "$1"*.jar ]] && return 0
  done
  return 1
}
missing=()
for needed in ceiling-junit5- ceiling-experiment-; do
  has_jar "$needed" || missing+=("${needed}*.jar")
done
if ((${#missing[@]} > 0)); then
  echo "consumer classpath check: not on the example's test classpath: ${missing[*]} (it holds ${#jars[@]} jars, from $file)" >&2
  exit 1
fi
echo "consumer classpath check: ${#jars[@]} jars, no picocli, uPlot, H2 or PostgreSQL driver"

#!/usr/bin/env bash
# Renders the shop app's dependency graph (`shop-demo --dot`) with Graphviz into the picture the README shows.
#
#   Integration/render-graph.sh                 # writes docs/graph.svg (commit it after a wiring change)
#   Integration/render-graph.sh /tmp/graph.svg  # writes elsewhere (CI checks that the DOT renders)
set -euo pipefail
cd "$(dirname "$0")/.."
output=${1:-docs/graph.svg}
if ! command -v dot >/dev/null 2>&1; then
    echo "render-graph: Graphviz (dot) is missing; install it (apt-get install graphviz, brew install graphviz)." >&2
    exit 1
fi
dotfile=$(mktemp --suffix=.dot)
trap 'rm -f "$dotfile"' EXIT
swift run --package-path Integration shop-demo --dot >"$dotfile"
mkdir -p "$(dirname "$output")"
dot -Tsvg "$dotfile" -o "$output"
grep -q "<svg" "$output"
echo "render-graph: wrote $output"

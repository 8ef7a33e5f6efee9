#!/usr/bin/env bash
# How many cache lines of code and of data one request's container work touches, counted exactly.
#
#   bash Integration/cold-lines.sh                    # every request-probe mode
#   bash Integration/cold-lines.sh add hand-add       # some of them
#
# Under HTTP load a request container costs about 2.5 times what its instructions cost in a tight loop: between
# two requests the kernel and the HTTP stack push its code and objects out of the caches, so every line it
# touches is fetched again. This script counts those lines with Valgrind's cache simulator: request-probe runs
# each mode 200 and 400 times, writing 2 MB of other memory after every request (PROBE_EVICT_KB), with a
# simulated 1 MB last-level cache (so the writing empties it) and a 1 KB instruction cache (so no code survives
# from one request to the next, as none does in a server). A last-level miss is then a line the request
# touched; the difference of the two runs over 200 is one request's. Data lines are given minus those of the
# `idle` mode (the writing alone). Deterministic: compare builds by these counts, not by timings.
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v valgrind > /dev/null; then
    echo "cold-lines: installing valgrind" >&2
    apt-get update -qq > /dev/null && apt-get install -y -qq valgrind > /dev/null
fi

swift build -c release --scratch-path .build-release --product request-probe > /dev/null
# Valgrind 3.19 cannot read the debug information Swift 6 writes: it runs a copy without it.
probe="$(mktemp -d)/request-probe"
trap 'rm -rf "$(dirname "$probe")"' EXIT
strip --strip-debug -o "$probe" "$(swift build -c release --scratch-path .build-release --show-bin-path)/request-probe"

# `<mode> <count>` -> "<instructions> <code line misses> <data line misses>"
count() {
    PROBE_EVICT_KB=2048 valgrind --tool=cachegrind --cache-sim=yes --cachegrind-out-file=/dev/null \
        --I1=1024,2,64 --D1=32768,8,64 --LL=1048576,16,64 "$probe" "$1" "$2" 2>&1 |
        awk '/ I *refs:/ { gsub(",", "", $4); i = $4 }
             / LLi misses:/ { gsub(",", "", $4); c = $4 }
             / LLd misses:/ { gsub(",", "", $4); d = $4 }
             END { print i, c, d }'
}

# `<mode>` -> per-request "<instructions> <code lines> <data lines>"
per_request() {
    read -r i1 c1 d1 < <(count "$1" 200)
    read -r i2 c2 d2 < <(count "$1" 400)
    echo $(( (i2 - i1) / 200 )) $(( (c2 - c1) / 200 )) $(( (d2 - d1) / 200 ))
}

modes=("$@")
[ ${#modes[@]} -gt 0 ] || modes=(lifecycle products health add hand-add)
read -r idle_i _ idle_d < <(per_request idle)
printf '%-10s %14s %12s %12s\n' mode instructions "code lines" "data lines"
for mode in "${modes[@]}"; do
    read -r i c d < <(per_request "$mode")
    printf '%-10s %14d %12d %12d\n' "$mode" $(( i - idle_i )) "$c" $(( d - idle_d ))
done

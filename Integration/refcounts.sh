#!/usr/bin/env bash
# How many reference counts one request's container work writes, and how many of them land on objects that
# every request shares.
#
#   bash Integration/refcounts.sh                       # lifecycle, add, scoped-add and hand-add
#   bash Integration/refcounts.sh add minimal-add       # some request-probe modes
#
# A retain or a release is an atomic write to the object's header. On an object that only one request uses it
# costs a few nanoseconds; on an object every request uses — the app container, a registration of the app, a
# singleton — the two cores of a server write the same cache line, and each write first fetches the line from the
# other core. Instruction and line counts (cold-lines.sh) cannot tell the two apart; this script can. It preloads
# Integration/Tools/refcounts.c into request-probe, which counts every swift_retain and swift_release called from
# Swift code (not those inside the runtime) per object, with how many objects were allocated at its address, and
# runs each mode 1,000 and 3,000 times: the difference over 2,000 is one request's. An object is *shared* when it
# was allocated at most once and touched by most requests (allocated before the requests began; an object the
# optimiser keeps on the stack is allocated without the runtime and counts as shared too); every other object is
# the request's own. The standard library's empty array, set and dictionary are counted apart: they
# are immortal, and the runtime does not write their counts. Prints, per mode, the counts on each kind, and the
# shared objects by type. Deterministic for one build; Linux only.
set -euo pipefail
cd "$(dirname "$0")"

modes=("$@")
[ ${#modes[@]} -gt 0 ] || modes=(lifecycle add scoped-add hand-add)

swift build -c release --scratch-path .build-release --product request-probe > /dev/null
probe="$(swift build -c release --scratch-path .build-release --show-bin-path)/request-probe"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
runtime="$(dirname "$(dirname "$(command -v swift)")")/lib/swift/linux"
"${CC:-clang}" -O2 -shared -fPIC -o "$work/refcounts.so" Tools/refcounts.c -L"$runtime" -lswiftCore -ldl -lpthread

# `<mode> <requests>`: one run's counts per object, in $work/<mode>.<requests>.
run() {
    REFCOUNTS_OUT="$work/$1.$2" LD_PRELOAD="$work/refcounts.so" "$probe" "$1" "$2" > /dev/null
}

for mode in "${modes[@]}"; do
    run "$mode" 1000
    run "$mode" 3000
    # Columns: retains, releases, allocations at the address, type. Sums per kind and per shared type, run by run,
    # then the difference over 2,000 requests.
    awk -F'\t' -v mode="$mode" '
        function add(run, requests,   shared) {
            shared = $3 <= 1 && $1 + $2 >= requests / 2
            if ($4 ~ /^Swift\.__Empty/) immortalCounts[run] += $1 + $2
            else if (shared) { sharedCounts[run] += $1 + $2; byType[run, $4] += $1 + $2; types[$4] = 1 }
            else ownCounts[run] += $1 + $2
        }
        FNR == 1 { run++ }
        { add(run, run == 1 ? 1000 : 3000) }
        END {
            printf "%-12s %6.1f on the request'"'"'s own objects  %6.1f on shared ones  %6.1f on immortal ones\n",
                mode, (ownCounts[2] - ownCounts[1]) / 2000, (sharedCounts[2] - sharedCounts[1]) / 2000,
                (immortalCounts[2] - immortalCounts[1]) / 2000
            for (type in types) {
                perRequest = (byType[2, type] - byType[1, type]) / 2000
                if (perRequest >= 0.5) printf "    %6.1f  %s\n", perRequest, type
            }
        }' "$work/$mode.1000" "$work/$mode.3000"
done

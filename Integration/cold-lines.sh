#!/usr/bin/env bash
# How many cache lines of code and of data one request's container work touches, counted exactly.
#
#   bash Integration/cold-lines.sh                    # every request-probe mode
#   bash Integration/cold-lines.sh add hand-add       # some of them
#   bash Integration/cold-lines.sh --budget           # CI: instructions per request against request-budget.txt
#   bash Integration/cold-lines.sh --record-budget    # write this build's counts to request-budget.txt
#
# --budget counts, for the modes request-budget.txt lists, the instructions per request outside the Swift
# runtime's generic-metadata lookups, and the lookups themselves (Callgrind, no cache simulation, no eviction: a
# few seconds per mode). It fails when a mode runs more than BUDGET_TOLERANCE_PERCENT (0.5) above its budget of
# instructions, or makes more lookups per request than its budget: a request container's path was trimmed a few
# dozen instructions at a time, and a change that adds some back shows here, where a load run cannot see it. A
# mode that runs more than 2% below its budget passes, with a reminder to record the new counts. `hand-add` runs
# none of DIToolkit's code: when it moves by more than 1%, the machine (its C library, its toolchain) counts
# differently from the one that recorded the budget, and the check says so and checks nothing.
#
# Why the lookups are counted apart: the runtime finds generic metadata in a hash table whose layout depends on
# every type the process made, so a lookup's instructions change when a change adds types anywhere in the binary,
# with no code on the request path (the `X-User` header lookup both servers run asks for one on every request).
# Counted together, `hand-add` moved between 6,960 and 7,066 instructions from one build to the next on
# 2026-11-29, and `add` by up to 124, more than the 0.5%; without the lookups both read the same in those builds.
# A lookup that DIToolkit's code adds (a generic type made at run time on the request path) still fails the check,
# by their number.
#
# Under HTTP load a request container costs about 2.5 times what its instructions cost in a tight loop: between
# two requests the kernel and the HTTP stack push its code and objects out of the caches, so every line it
# touches is fetched again. This script counts those lines with Valgrind's cache simulator: request-probe runs
# each mode 200 and 400 times, writing 2 MB of other memory after every request (PROBE_EVICT_KB), with a
# simulated 1 MB last-level cache (so the writing empties it) and a 1 KB instruction cache (so no code survives
# from one request to the next, as none does in a server). A last-level miss is then a line the request
# touched; the difference of the two runs over 200 is one request's. Data lines are given minus those of the
# `idle` mode (the writing alone). Deterministic: compare builds by these counts, not by timings.
#
# How the code is laid out moves the line counts of every mode by a few lines from one build to the next, also
# where the change did not touch it (see `hand-add`, which runs no DIToolkit code). The last column does not
# move with the layout: how many distinct instructions of DIToolkit's code each request runs (Valgrind's
# Callgrind, the same two runs; an instruction that ran at least once per request). A step that shortens the
# request's path shows there even when the lines hide it.
set -euo pipefail
cd "$(dirname "$0")"
# A set's order depends on a hash seed that changes from one process to the next: a request container's tags, a
# set, are searched in that order, which moved `add` by up to 100 instructions between two runs of one binary.
export SWIFT_DETERMINISTIC_HASHING=1

if ! command -v valgrind > /dev/null; then
    echo "cold-lines: installing valgrind" >&2
    apt-get update -qq > /dev/null && apt-get install -y -qq valgrind > /dev/null
fi

budget_file=request-budget.txt
budget=""
case "${1:-}" in
    --budget) budget=check; shift ;;
    --record-budget) budget=record; shift ;;
esac

swift build -c release --scratch-path .build-release --product request-probe > /dev/null
# Valgrind 3.19 cannot read the debug information Swift 6 writes: it runs a copy without it.
probe="$(mktemp -d)/request-probe"
trap 'rm -rf "$(dirname "$probe")"' EXIT
strip --strip-debug -o "$probe" "$(swift build -c release --scratch-path .build-release --show-bin-path)/request-probe"

# `<mode> <count>` -> "<instructions> <code line misses> <data line misses>"
count() {
    PROBE_EVICT_KB=2048 valgrind --tool=cachegrind --cache-sim=yes --I1=1024,2,64 --D1=32768,8,64 \
        --LL=1048576,16,64 --cachegrind-out-file=/dev/null "$probe" "$1" "$2" 2>&1 |
        awk '/ I *refs:/ { gsub(",", "", $4); i = $4 }
             / LLi misses:/ { gsub(",", "", $4); c = $4 }
             / LLd misses:/ { gsub(",", "", $4); d = $4 }
             END { print i, c + 0, d + 0 }'
}

# `<mode>` -> per-request "<instructions> <code lines> <data lines>"
per_request() {
    read -r i1 c1 d1 < <(count "$1" 200)
    read -r i2 c2 d2 < <(count "$1" 400)
    echo $(( (i2 - i1) / 200 )) $(( (c2 - c1) / 200 )) $(( (d2 - d1) / 200 ))
}

# `<mode>` -> how many distinct instructions of DIToolkit's modules every one of its requests ran: those whose
# execution count grew by at least 200 from the run of 200 requests to the run of 400.
distinct() {
    local runs
    runs="$(dirname "$probe")"
    for requests in 200 400; do
        valgrind --tool=callgrind --dump-instr=yes --compress-pos=no --compress-strings=no \
            --callgrind-out-file="$runs/$1.$requests" "$probe" "$1" "$requests" > /dev/null 2>&1
    done
    # Per instruction (object, address): its count in each run; the line after a `calls=` line is the call's
    # cost, not the instruction's.
    awk -v requests=200 '
        FNR == 1 { run++ }
        /^ob=/ { object = substr($0, 4); next }
        /^fn=/ { function_name = substr($0, 4); next }
        /^calls=/ { call = 1; next }
        /^0x/ {
            if (call) { call = 0; next }
            key = object " " $1
            count[run, key] += $3
            if (function_name ~ /^\$s(6DICore|8DIScopes|18DIPropertyWrappers)/) ours[key] = 1
        }
        END {
            for (key in ours) if (count[2, key] - count[1, key] >= requests) n++
            print n + 0
        }' "$runs/$1.200" "$runs/$1.400"
}

# `<mode> <count>` -> "<instructions> <instructions in generic-metadata lookups> <lookups>" (Callgrind). A
# lookup is a call of the runtime's `_swift_getGenericMetadata`, from wherever it is asked (a lookup made inside
# another is named with a `'2` and counted in the outer one's instructions); the cost line after a call is its
# inclusive cost.
count_lookups() {
    local out
    out="$(dirname "$probe")/budget.$1.$2"
    PROBE_EVICT_KB=0 valgrind --tool=callgrind --compress-strings=no --callgrind-out-file="$out" \
        "$probe" "$1" "$2" > /dev/null 2>&1
    awk -v quote="'" '/^summary:/ { total = $2 }
         /^cfn=/ { target = substr($0, 5); next }
         /^calls=/ {
             lookup = target ~ /^_swift_getGenericMetadata\(/ && target !~ (quote "[0-9]+$")
             if (lookup) { split($1, call, "="); lookups += call[2] }
             next
         }
         lookup { inside += $2; lookup = 0 }
         END { print total, inside + 0, lookups + 0 }' "$out"
}

# `<mode>` -> per request "<instructions outside generic-metadata lookups> <lookups>".
budgeted_counts() {
    read -r t1 m1 l1 < <(count_lookups "$1" 200)
    read -r t2 m2 l2 < <(count_lookups "$1" 400)
    echo $(( (t2 - m2 - t1 + m1) / 200 )) $(( (l2 - l1) / 200 ))
}

if [ "$budget" = record ]; then
    {
        echo "# Per request of request-probe's modes, the budget \`cold-lines.sh --budget\` checks: instructions outside"
        echo "# the Swift runtime's generic-metadata lookups, and those lookups. Written by"
        echo "# \`bash Integration/cold-lines.sh --record-budget\`; hand-add runs none of DIToolkit's code."
        for mode in lifecycle products health add hand-add; do echo "$mode $(budgeted_counts "$mode")"; done
    } > "$budget_file"
    cat "$budget_file"
    exit 0
fi

if [ "$budget" = check ]; then
    tolerance=${BUDGET_TOLERANCE_PERCENT:-0.5}
    declare -A measured recorded lookups recorded_lookups
    budgeted=()
    printf '%-10s %10s %10s %8s %8s %8s\n' mode budget measured change lookups measured
    while read -r mode count lookup_count; do
        budgeted+=("$mode")
        recorded[$mode]=$count
        recorded_lookups[$mode]=$lookup_count
        read -r "measured[$mode]" "lookups[$mode]" < <(budgeted_counts "$mode")
        printf '%-10s %10d %10d %+7.2f%% %8d %8d\n' "$mode" "$count" "${measured[$mode]}" \
            "$(echo "${measured[$mode]} $count" | awk '{ print ($1 - $2) * 100 / $2 }')" \
            "$lookup_count" "${lookups[$mode]}"
    done < <(grep -v '^#' "$budget_file")
    if awk -v m="${measured[hand-add]}" -v r="${recorded[hand-add]}" 'BEGIN { exit !(m > r * 1.01 || m < r * 0.99) }'
    then
        echo "cold-lines: hand-add, which runs none of DIToolkit's code, moved by more than 1%: this machine counts"
        echo "differently from the one that recorded $budget_file. Nothing checked; record it here to check."
        exit 0
    fi
    status=0
    for mode in "${budgeted[@]}"; do
        verdict=$(awk -v m="${measured[$mode]}" -v r="${recorded[$mode]}" -v t="$tolerance" \
            'BEGIN { print (m > r * (1 + t / 100)) ? "over" : (m < r * 0.98) ? "under" : "ok" }')
        if [ "$verdict" = over ]; then
            echo "cold-lines: $mode runs ${measured[$mode]} instructions per request, over its budget of"
            echo "${recorded[$mode]} (+$tolerance% allowed). Find what the change added (Callgrind, as"
            echo "Integration/MEASUREMENTS.md does), or, if it is worth its cost, record the new counts with"
            echo "--record-budget and say why in the commit."
            status=1
        elif [ "$verdict" = under ]; then
            echo "cold-lines: $mode runs ${measured[$mode]} instructions per request, 2% or more under its budget of"
            echo "${recorded[$mode]}: record the new counts with --record-budget, so that the budget keeps the gain."
        fi
        if [ "${lookups[$mode]}" -gt "${recorded_lookups[$mode]}" ]; then
            echo "cold-lines: $mode asks the Swift runtime for generic metadata ${lookups[$mode]} times per request,"
            echo "${recorded_lookups[$mode]} in its budget: code on the request path now makes a generic type at run time"
            echo "(unspecialized generic code, a generic type spelled inside it). Find it with Callgrind (the callers of"
            echo "_swift_getGenericMetadata), or record the new counts with --record-budget and say why in the commit."
            status=1
        fi
    done
    exit $status
fi

modes=("$@")
[ ${#modes[@]} -gt 0 ] || modes=(lifecycle products health add scoped-add hand-add)
read -r idle_i _ idle_d < <(per_request idle)
printf '%-10s %14s %12s %12s %16s\n' mode instructions "code lines" "data lines" "DIToolkit code"
for mode in "${modes[@]}"; do
    read -r i c d < <(per_request "$mode")
    printf '%-10s %14d %12d %12d %16d\n' "$mode" $(( i - idle_i )) "$c" $(( d - idle_d )) "$(distinct "$mode")"
done

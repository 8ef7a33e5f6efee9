#!/usr/bin/env bash
# Load test of shop-server: the container server against the same handlers wired by hand, in one run.
#
#   Integration/load.sh                 60 s of load per variant (the README's table)
#   Integration/load.sh --short         a few seconds per variant (CI); fails on any non-2xx or memory growth
#   Integration/load.sh --duration 30 --port 9000 --connections 8
#   Integration/load.sh --floor         also the hand-scoped server: the hand-wired services handed out by a
#                                       request scope written by hand for this graph (a middleware, a task-local
#                                       binding, an object and a lock per request), the request container's
#                                       shape with nothing general in it
#   Integration/load.sh --minimal       also the floor and the minimal-container server: the same services in the
#                                       least a general container does (found by type in a table made at
#                                       start-up, kept type-erased, one scope per request), to tell what being
#                                       general costs from what DIToolkit adds to it
#   Integration/load.sh --route add     one route only instead of the mix (products, add, health), to see which
#                                       routes the container's cost falls on
#   Integration/load.sh --calibrate     the hand-wired server against itself with 500 distinct functions
#                                       (cold-code) and with the same instructions in one (hot-loop) per request
#   Integration/load.sh --pin           wrk on the first core, the servers on the others (taskset), as when the
#                                       load comes from other machines: wrk's threads do not run on the servers'
#                                       cores between their requests. Prints each core's busy time, and fails
#                                       when wrk's core was busy enough (over 90%) to be what limits throughput
#
# Builds shop-server in release, starts the variants on 127.0.0.1 (ports PORT, PORT+1, ...), warms each up,
# then drives them with wrk (Integration/Load/mix.lua: GET /products, POST /cart/items, POST /checkout,
# GET /health) in alternating slices, so that whatever else the machine does hits them alike. Prints one
# table: requests/s, p50 and p99 latency, non-2xx responses, resident memory (VmRSS) after the warm-up and at
# the end, for every variant, and the ratios to the hand-wired server. Exits non-zero on any non-2xx response
# or socket error, on resident memory growing more than MAX_RSS_GROWTH_PERCENT (5) after the warm-up, or when a
# server does not shut down cleanly on SIGTERM.
#
# --calibrate measures what code costs under load apart from its instructions: cold-code's 500 functions run
# the same instructions as hot-loop's one, but each of their cache lines is fetched again on every request, as
# a request container's are. It prints the difference per request and per line of that code, the exchange rate
# between Integration/cold-lines.sh's counts and throughput on this machine.
set -euo pipefail
script="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd "$(dirname "$script")"

duration=60          # seconds of measured load per variant
warmup=10            # seconds of warm-up per variant, before the first memory reading
slices=6             # the measured load of each variant is split into this many alternating slices
connections=8        # wrk connections, one wrk thread each (one user per connection)
port=${PORT:-8089}
calibrate=0
floor=0
minimal=0
pin=0
route=""
max_rss_growth=${MAX_RSS_GROWTH_PERCENT:-5}
while [ $# -gt 0 ]; do
    case "$1" in
        --short) duration=6; warmup=4; slices=2 ;;
        --calibrate) calibrate=1 ;;
        --floor) floor=1 ;;
        --minimal) floor=1; minimal=1 ;;
        --pin) pin=1 ;;
        --route)
            case "$2" in
                products|add|health) route=$2 ;;
                *) echo "load.sh: --route takes products, add or health" >&2; exit 2 ;;
            esac
            shift ;;
        --duration) duration=$2; shift ;;
        --warmup) warmup=$2; shift ;;
        --slices) slices=$2; shift ;;
        --connections) connections=$2; shift ;;
        --port) port=$2; shift ;;
        -h|--help) sed -n '2,25p' "$script" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "load.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
slice=$(( (duration + slices - 1) / slices ))

if ! command -v wrk >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1; then
        SUDO=$([ "$(id -u)" -eq 0 ] && echo "" || echo sudo)
        $SUDO apt-get update -qq && $SUDO apt-get install -y -qq wrk >/dev/null
    else
        echo "load.sh: wrk is missing and apt-get is not available; install wrk." >&2
        exit 1
    fi
fi

# With --pin, wrk runs on core 0 and the servers on the other cores.
wrk_on=()
server_on=()
if [ "$pin" -eq 1 ]; then
    if [ "$(nproc)" -lt 2 ]; then echo "load.sh: --pin needs at least two cores" >&2; exit 2; fi
    wrk_on=(taskset -c 0)
    server_on=(taskset -c "1-$(( $(nproc) - 1 ))")
fi
# Busy and total jiffies of every core, one "cpuN busy total" line each (/proc/stat: idle and iowait are idle).
core_times() {
    awk '$1 ~ /^cpu[0-9]+$/ { busy = $2 + $3 + $4 + $7 + $8 + $9; print $1, busy, busy + $5 + $6 }' /proc/stat
}

echo "== Building shop-server (release)"
swift build -c release --scratch-path .build-release --product shop-server
bin="$(swift build -c release --scratch-path .build-release --show-bin-path)/shop-server"
if [ "$calibrate" -eq 1 ]; then
    # The distinct 64-byte lines of machine code cold-code runs: its 500 functions and their thunks.
    cold_lines=$(nm -S --defined-only "$bin" | grep -E 'ShopServer[0-9]+step[0-9]+' | while read -r address size _ _; do
        first=$(( 0x$address / 64 )); last=$(( (0x$address + 0x$size - 1) / 64 ))
        seq "$first" "$last"
    done | sort -u | wc -l)
fi

work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

# The variants, each with its shop-server flags; the last is the baseline the others are compared with.
variants=(container hand-wired)
[ "$floor" -eq 1 ] && variants=(container hand-scoped hand-wired)
[ "$minimal" -eq 1 ] && variants=(container minimal-container hand-scoped hand-wired)
[ "$calibrate" -eq 1 ] && variants=(cold-code hot-loop hand-wired)
declare -A pid_of port_of
declare -A flags_of=(
    [container]="" [hand-wired]="--hand-wired" [hand-scoped]="--hand-scoped"
    [minimal-container]="--minimal-container"
    [cold-code]="--hand-wired --synthetic-work cold-code" [hot-loop]="--hand-wired --synthetic-work hot-loop"
)
start() {  # variant port
    # shellcheck disable=SC2086  # the flags are words
    "${server_on[@]}" "$bin" --host 127.0.0.1 --port "$2" ${flags_of[$1]} >"$work/$1.log" 2>&1 &
    pid_of[$1]=$!
    port_of[$1]=$2
    pids+=("$!")
    for _ in $(seq 1 100); do
        if curl -sf "http://127.0.0.1:$2/health" >/dev/null 2>&1; then return 0; fi
        if ! kill -0 "${pid_of[$1]}" 2>/dev/null; then break; fi
        sleep 0.1
    done
    echo "load.sh: shop-server ($1) did not start on port $2:" >&2
    cat "$work/$1.log" >&2
    exit 1
}
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
drive() {  # variant seconds output
    "${wrk_on[@]}" wrk -t "$connections" -c "$connections" -d "${2}s" --timeout 5s -s Load/mix.lua \
        "http://127.0.0.1:${port_of[$1]}" ${route:+-- "$route"} >"$3" 2>"$3.err" || { cat "$3" "$3.err" >&2; exit 1; }
    if [ -s "$3.err" ]; then sed 's/^/  wrk: /' "$3.err" >&2; fi
}

echo "== Starting ${variants[*]}, warming up ${warmup}s each"
for index in "${!variants[@]}"; do start "${variants[$index]}" "$((port + index))"; done
declare -A rss_before rss_after
for variant in "${variants[@]}"; do
    drive "$variant" "$warmup" "$work/$variant.warmup"
    rss_before[$variant]=$(rss_kb "${pid_of[$variant]}")
done

echo "== Measuring ${slices} × ${slice}s per variant, alternating"
core_times >"$work/cores.before"
for i in $(seq 1 "$slices"); do
    # Rotate which variant goes first, so none always follows the same other.
    first=$(( (i - 1) % ${#variants[@]} ))
    order=("${variants[@]:first}" "${variants[@]:0:first}")
    for variant in "${order[@]}"; do drive "$variant" "$slice" "$work/$variant.slice$i"; done
done
for variant in "${variants[@]}"; do rss_after[$variant]=$(rss_kb "${pid_of[$variant]}"); done
core_times >"$work/cores.after"

echo "== Graceful shutdown (SIGTERM)"
for variant in "${variants[@]}"; do
    kill -TERM "${pid_of[$variant]}"
    if ! wait "${pid_of[$variant]}"; then
        echo "load.sh: shop-server ($variant) did not exit cleanly on SIGTERM:" >&2
        cat "$work/$variant.log" >&2
        exit 1
    fi
done
pids=()

# Sums requests, duration and non-2xx over the slices; latency percentiles are averaged over the slices.
summarize() {  # variant
    cat "$work/$1".slice* | awk -v before="${rss_before[$1]}" -v after="${rss_after[$1]}" '
        $1 == "RESULT" { v[$2] += $3; if ($2 == "p50_us") n++ }
        END {
            printf "%.0f %.3f %.3f %d %d %d %d\n", v["requests"] / (v["duration_us"] / 1e6),
                v["p50_us"] / n / 1000, v["p99_us"] / n / 1000, v["non2xx"], v["socket_errors"], before, after
        }'
}
baseline=${variants[-1]}
declare -A summary_of
for variant in "${variants[@]}"; do summary_of[$variant]=$(summarize "$variant"); done

# One row per variant, then one ratio row per variant against the baseline.
{
    for variant in "${variants[@]}"; do echo "row $variant ${summary_of[$variant]}"; done
    for variant in "${variants[@]:0:${#variants[@]}-1}"; do
        echo "ratio $variant / $baseline ${summary_of[$variant]} ${summary_of[$baseline]}"
    done
} | awk -v duration="$duration" -v warmup="$warmup" -v conns="$connections" -v cores="$(nproc)" -v route="$route" \
    -v calibrate="$calibrate" -v lines="${cold_lines:-0}" '
    function growth(b, a) { return (a - b) * 100 / b }
    BEGIN {
        printf "\nshop-server under wrk: %d s per variant after %d s of warm-up, %d connections, 127.0.0.1, %s\n\n",
            duration, warmup, conns, route == "" ? "the mix of routes" : "route " route " only"
        printf "| %-30s | %9s | %8s | %8s | %7s | %10s | %10s | %7s |\n",
            "variant", "req/s", "p50 ms", "p99 ms", "non-2xx", "RSS warm", "RSS end", "growth"
        printf "|%s|%s|%s|%s|%s|%s|%s|%s|\n", "--------------------------------", "----------:", "---------:",
            "---------:", "--------:", "-----------:", "-----------:", "--------:"
    }
    $1 == "row" {
        printf "| %-30s | %9d | %8.3f | %8.3f | %7d | %7.1f MB | %7.1f MB | %6.1f%% |\n", $2,
            $3, $4, $5, $6 + $7, $8 / 1024, $9 / 1024, growth($8, $9)
        rps[$2] = $3; p50[$2] = $4
    }
    $1 == "ratio" {
        # $2 / $4: the variant ($5..$11) over the baseline ($12..$18).
        printf "| %-30s | %9.3f | %8.3f | %8.3f | %7s | %10.3f | %10.3f | %7s |\n",
            $2 " / " $4, $5 / $12, $6 / $13, $7 / $14, "", $10 / $17, $11 / $18, ""
        cost[$2] = sprintf("throughput %+.1f%%, p50 %+.1f%%", ($12 - $5) * 100 / $12, ($6 - $13) * 100 / $13)
    }
    END {
        if ("container" in cost) printf "\nContainer cost: %s (target: at most 5%% each).\n", cost["container"]
        if ("hand-scoped" in cost) printf "The request scope by hand (the floor): %s.\n", cost["hand-scoped"]
        if (("container" in rps) && ("hand-scoped" in rps)) {
            printf "The container against the scope by hand: throughput %+.1f%%, p50 %+.1f%%.\n",
                (rps["hand-scoped"] - rps["container"]) * 100 / rps["hand-scoped"],
                (p50["container"] - p50["hand-scoped"]) * 100 / p50["hand-scoped"]
        }
        if ("minimal-container" in cost) printf "The minimal general container: %s.\n", cost["minimal-container"]
        if (calibrate) {
            # Machine time per request (every core is busy): cores / throughput.
            cold = cores / rps["cold-code"] * 1e6; hot = cores / rps["hot-loop"] * 1e6
            printf "\nThe same instructions cost %.1f us more per request spread over 500 functions", cold - hot
            printf " than in one (%.1f%% of throughput)", (rps["hot-loop"] - rps["cold-code"]) * 100 / rps["hot-loop"]
            if (lines > 0) {
                printf ": about %.0f ns per line of their %d lines of code", (cold - hot) * 1000 / lines, lines
            }
            printf ".\n"
        }
    }'

# Each core's busy time over the measured slices (all variants): with --pin, core 0 is wrk's.
busy=$(paste -d ' ' "$work/cores.before" "$work/cores.after" | awk -v pin="$pin" '
    { core = substr($1, 4); share = ($5 - $2) * 100 / ($6 - $3)
      role = pin ? (core == 0 ? " (wrk)" : " (servers)") : ""
      printf "%s%s core %d%s %.0f%%", sep, (NR == 1 ? "Busy while measuring:" : ""), core, role, share; sep = ","
      if (core == 0) first = share }
    END { printf ".\n%d\n", first }')
echo "${busy%$'\n'*}"
status=0
if [ "$pin" -eq 1 ] && [ "${busy##*$'\n'}" -gt 90 ]; then
    echo "FAIL: wrk's core was over 90% busy: wrk, not the servers, may have set the pace. Use fewer" \
        "connections (--connections) or a machine with more cores." >&2
    status=1
fi
for variant in "${variants[@]}"; do
    read -r _ _ _ bad err b a <<<"${summary_of[$variant]}"
    bad=$((bad + err))
    if [ "$bad" -ne 0 ]; then
        echo "FAIL: $variant answered $bad requests with a non-2xx status or a socket error." >&2
        status=1
    fi
    if [ $(( (a - b) * 100 )) -gt $(( b * max_rss_growth )) ]; then
        echo "FAIL: $variant's resident memory grew from $b kB to $a kB, more than ${max_rss_growth}% after" \
            "the warm-up: something is kept per request." >&2
        status=1
    fi
done
[ "$status" -eq 0 ] && echo "OK: no non-2xx responses, resident memory flat (at most ${max_rss_growth}% growth)."
exit "$status"

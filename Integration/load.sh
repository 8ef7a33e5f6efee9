#!/usr/bin/env bash
# Load test of shop-server: the container server against the same handlers wired by hand, in one run.
#
#   Integration/load.sh                 60 s of load per variant (the README's table)
#   Integration/load.sh --short         a few seconds per variant (CI); fails on any non-2xx or memory growth
#   Integration/load.sh --duration 30 --port 9000 --connections 8
#
# Builds shop-server in release, starts both variants on 127.0.0.1 (ports PORT and PORT+1), warms each up,
# then drives them with wrk (Integration/Load/mix.lua: GET /products, POST /cart/items, POST /checkout,
# GET /health) in alternating slices, so that whatever else the machine does hits both alike. Prints one
# table: requests/s, p50 and p99 latency, non-2xx responses, resident memory (VmRSS) after the warm-up and at
# the end, for both variants, and the ratios. Exits non-zero on any non-2xx response or socket error, on
# resident memory growing more than MAX_RSS_GROWTH_PERCENT (5) after the warm-up, or when a server does not
# shut down cleanly on SIGTERM.
set -euo pipefail
script="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd "$(dirname "$script")"

duration=60          # seconds of measured load per variant
warmup=10            # seconds of warm-up per variant, before the first memory reading
slices=6             # the measured load of each variant is split into this many alternating slices
connections=8        # wrk connections, one wrk thread each (one user per connection)
port=${PORT:-8089}
max_rss_growth=${MAX_RSS_GROWTH_PERCENT:-5}
while [ $# -gt 0 ]; do
    case "$1" in
        --short) duration=6; warmup=4; slices=2 ;;
        --duration) duration=$2; shift ;;
        --warmup) warmup=$2; shift ;;
        --slices) slices=$2; shift ;;
        --connections) connections=$2; shift ;;
        --port) port=$2; shift ;;
        -h|--help) sed -n '2,15p' "$script" | sed 's/^# \{0,1\}//'; exit 0 ;;
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

echo "== Building shop-server (release)"
swift build -c release --scratch-path .build-release --product shop-server
bin="$(swift build -c release --scratch-path .build-release --show-bin-path)/shop-server"

work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

variants=(container hand-wired)
declare -A pid_of port_of
start() {  # variant port
    local flag=""
    [ "$1" = hand-wired ] && flag=--hand-wired
    "$bin" --host 127.0.0.1 --port "$2" $flag >"$work/$1.log" 2>&1 &
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
    wrk -t "$connections" -c "$connections" -d "${2}s" --timeout 5s -s Load/mix.lua \
        "http://127.0.0.1:${port_of[$1]}" >"$3" 2>"$3.err" || { cat "$3" "$3.err" >&2; exit 1; }
    if [ -s "$3.err" ]; then sed 's/^/  wrk: /' "$3.err" >&2; fi
}

echo "== Starting both variants, warming up ${warmup}s each"
start container "$port"
start hand-wired "$((port + 1))"
declare -A rss_before rss_after
for variant in "${variants[@]}"; do
    drive "$variant" "$warmup" "$work/$variant.warmup"
    rss_before[$variant]=$(rss_kb "${pid_of[$variant]}")
done

echo "== Measuring ${slices} × ${slice}s per variant, alternating"
for i in $(seq 1 "$slices"); do
    # Alternate which variant goes first, so neither always follows the other.
    order=("${variants[@]}")
    [ $((i % 2)) -eq 0 ] && order=(hand-wired container)
    for variant in "${order[@]}"; do drive "$variant" "$slice" "$work/$variant.slice$i"; done
done
for variant in "${variants[@]}"; do rss_after[$variant]=$(rss_kb "${pid_of[$variant]}"); done

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
read -r c_rps c_p50 c_p99 c_bad c_err c_before c_after <<<"$(summarize container)"
read -r h_rps h_p50 h_p99 h_bad h_err h_before h_after <<<"$(summarize hand-wired)"

awk -v c="$c_rps $c_p50 $c_p99 $c_bad $c_err $c_before $c_after" \
    -v h="$h_rps $h_p50 $h_p99 $h_bad $h_err $h_before $h_after" \
    -v duration="$duration" -v warmup="$warmup" -v conns="$connections" -v max="$max_rss_growth" '
    function growth(b, a) { return (a - b) * 100 / b }
    BEGIN {
        split(c, C, " "); split(h, H, " ")
        printf "\nshop-server under wrk: %d s per variant after %d s of warm-up, %d connections, 127.0.0.1\n\n",
            duration, warmup, conns
        printf "| %-22s | %9s | %8s | %8s | %7s | %10s | %10s | %7s |\n",
            "variant", "req/s", "p50 ms", "p99 ms", "non-2xx", "RSS warm", "RSS end", "growth"
        printf "|%s|%s|%s|%s|%s|%s|%s|%s|\n", "------------------------", "----------:", "---------:",
            "---------:", "--------:", "-----------:", "-----------:", "--------:"
        printf "| %-22s | %9d | %8.3f | %8.3f | %7d | %7.1f MB | %7.1f MB | %6.1f%% |\n", "container",
            C[1], C[2], C[3], C[4] + C[5], C[6] / 1024, C[7] / 1024, growth(C[6], C[7])
        printf "| %-22s | %9d | %8.3f | %8.3f | %7d | %7.1f MB | %7.1f MB | %6.1f%% |\n", "hand-wired",
            H[1], H[2], H[3], H[4] + H[5], H[6] / 1024, H[7] / 1024, growth(H[6], H[7])
        printf "| %-22s | %9.3f | %8.3f | %8.3f | %7s | %10.3f | %10.3f | %7s |\n",
            "container / hand-wired", C[1] / H[1], C[2] / H[2], C[3] / H[3], "", C[6] / H[6], C[7] / H[7], ""
        printf "\nContainer cost: throughput %+.1f%%, p50 %+.1f%% (target: at most 5%% each).\n",
            (H[1] - C[1]) * 100 / H[1], (C[2] - H[2]) * 100 / H[2]
    }'

status=0
for variant in container hand-wired; do
    if [ "$variant" = container ]; then bad=$((c_bad + c_err)); b=$c_before; a=$c_after
    else bad=$((h_bad + h_err)); b=$h_before; a=$h_after; fi
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

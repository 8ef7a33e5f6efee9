#!/usr/bin/env bash
# What the request scope costs shop-server under HTTP load, read from the server's own CPU samples.
#
#   Integration/profile.sh                  20 s of load per variant
#   Integration/profile.sh --duration 60    longer, for a finer breakdown
#   SHOP_SERVER=path/to/shop-server Integration/profile.sh   a build of your own (another commit's, to compare)
#   Integration/profile.sh --minimal        also the minimal-container server (shop-server --minimal-container)
#
# Runs the container server and the hand-scoped one (`shop-server --hand-scoped`: the same services handed out
# by a request scope written by hand for this graph) in turn under wrk's mix, as load.sh does, and samples each
# with `perf record -g` (the CPU clock, 2999 times a second per thread). A sample is in the request scope when a
# frame of its stack is the scope's code: DIToolkit's modules and RequestContainerMiddleware for the container,
# HandScope for the hand-scoped server, MinimalContainer (and its middleware) for the minimal one. The scopes
# build the same services (the unit of work, the user, the cart) and the middlewares make the same RequestInfo,
# so those constructors count on every side. Prints, per variant, the server's CPU per request, the scope's part
# of it, and that part's share of the server's samples; then the container's part by the innermost frame of its
# code in each sample.
#
# The share is a ratio within one run, so it does not move with the machine's speed from one minute to the next,
# which moves load.sh's throughput ratios by several points: runs of one build spread by about 0.4 points of
# share, so three runs of each of two builds tell a step of about a point (some 1.2 µs per request). It counts only
# what runs inside the scope's frames (their cache misses included), not what the scope's code and data cost the
# rest of the request by pushing it out of the caches; load.sh measures that, and everything else, in the end
# result. See Integration/MEASUREMENTS.md, "Under load, from the server's own samples".
set -euo pipefail
cd "$(dirname "$0")"

duration=20
minimal=0
port=${PORT:-8089}
connections=8
while [ $# -gt 0 ]; do
    case "$1" in
        --duration) duration=$2; shift ;;
        --port) port=$2; shift ;;
        --minimal) minimal=1 ;;
        -h|--help) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "profile.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

for tool in wrk perf; do
    if ! command -v "$tool" > /dev/null; then
        echo "profile.sh: installing $tool" >&2
        package=$([ "$tool" = perf ] && echo linux-perf || echo wrk)
        apt-get update -qq > /dev/null && apt-get install -y -qq "$package" > /dev/null
    fi
done

bin=${SHOP_SERVER:-}
if [ -z "$bin" ]; then
    swift build -c release --scratch-path .build-release --product shop-server > /dev/null
    bin="$(swift build -c release --scratch-path .build-release --show-bin-path)/shop-server"
fi
work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT

# `<variant> <flags> <pattern>`: profiles one variant; writes "<variant> <requests> <samples> <in scope>" to
# $work/summary and the innermost scope frame of every sample in scope to $work/<variant>.frames.
profile() {
    "$bin" --host 127.0.0.1 --port "$port" $2 > "$work/$1.log" 2>&1 &
    server=$!
    for _ in $(seq 1 100); do
        curl -sf "http://127.0.0.1:$port/health" > /dev/null 2>&1 && break
        sleep 0.1
    done
    wrk -t "$connections" -c "$connections" -d 3s -s Load/mix.lua "http://127.0.0.1:$port" > /dev/null
    perf record -q -g -e cpu-clock -F 2999 -p "$server" -o "$work/$1.data" -- sleep "$((duration + 1))" \
        > /dev/null 2>&1 &
    local recorder=$!
    local requests
    requests=$(wrk -t "$connections" -c "$connections" -d "${duration}s" -s Load/mix.lua \
        "http://127.0.0.1:$port" | awk '/requests in/ { print $1 }')
    wait "$recorder"
    kill "$server"
    wait "$server" 2>/dev/null || true
    server=""
    # A sample is a header line, its frames (one per line, innermost first: address, symbol+offset, object),
    # and a blank line.
    perf script -i "$work/$1.data" -F ip,sym 2> /dev/null | awk -v pattern="$3" -v variant="$1" \
        -v requests="$requests" -v frames="$work/$1.frames" '
        function end_sample() {
            if (!open) return
            samples++
            if (inner != "") { in_scope++; print inner > frames }
            open = 0; inner = ""
        }
        NF == 0 { end_sample(); next }
        { open = 1; symbol = $2; sub(/\+0x[0-9a-f]+$/, "", symbol)
          if (inner == "" && symbol ~ pattern) inner = symbol }
        END { end_sample(); print variant, requests, samples, in_scope }' >> "$work/summary"
}

echo "== Profiling container and hand-scoped, ${duration}s each under wrk" >&2
profile container "" '6DICore|8DIScopes|18DIPropertyWrappers|RequestContainerMiddleware'
profile hand-scoped "--hand-scoped" 'HandScope'
[ "$minimal" -eq 1 ] && profile minimal-container "--minimal-container" 'MinimalContainer'

printf "\n%-18s %10s %14s %14s %8s\n" variant "req/s" "server µs/req" "scope µs/req" share
awk -v duration="$duration" '{
    per = 1e6 / 2999 / $2
    printf "%-18s %10.0f %14.1f %14.2f %7.1f%%\n", $1, $2 / duration, $3 * per, $4 * per, 100 * $4 / $3
}' "$work/summary"

requests=$(awk '$1 == "container" { print $2 }' "$work/summary")
echo
echo "The container's scope by the innermost frame of its code (µs per request; a frame's callees in the runtime,"
echo "the allocator and the services' own code count with it):"
# (awk rather than head: with pipefail, a sort cut short by head would fail the script)
sort "$work/container.frames" | uniq -c | sort -rn | awk 'NR <= 30' > "$work/top"
paste <(awk -v requests="$requests" '{ printf "%6.2f\n", $1 * 1e6 / 2999 / requests }' "$work/top") \
    <(awk '{ print $2 }' "$work/top" | swift demangle --simplified | cut -c1-100)

-- The request mix of Integration/load.sh, for wrk: one connection per wrk thread, each thread its own user,
-- so a thread's requests are strictly sequential and its checkout always finds the items it added.
--
-- Every 10 requests of a thread: 4 × GET /products, 3 × POST /cart/items, 2 × GET /health, 1 × POST /checkout;
-- with a script argument (`products`, `add` or `health`), that route alone (a cart that only grows, for `add`).
-- done() prints machine-readable lines (KEY value) that load.sh parses: the exact non-2xx count (wrk's own
-- "Non-2xx or 3xx" line lets 3xx pass), latency percentiles in microseconds, requests and duration.

local threads = {}
local counter = 0

function setup(thread)
    thread:set("id", counter)
    counter = counter + 1
    table.insert(threads, thread)
end

local products = { "espresso-beans", "grinder", "cup" }
local sequence = {
    "products", "add", "products", "health", "add", "products", "add", "products", "health", "checkout",
}

function init(args)
    -- `wrk ... -- add`: one route only (load.sh --route).
    if args[1] ~= nil then sequence = { args[1] } end
    non2xx = 0
    step = 0
    user = "load-" .. id
    requests = {}
    for i, kind in ipairs(sequence) do
        local headers = { ["X-User"] = user }
        if kind == "products" then
            requests[i] = wrk.format("GET", "/products", headers)
        elseif kind == "health" then
            requests[i] = wrk.format("GET", "/health", headers)
        elseif kind == "add" then
            headers["Content-Type"] = "application/json"
            local body = string.format('{"productID":"%s","quantity":1}', products[(i % #products) + 1])
            requests[i] = wrk.format("POST", "/cart/items", headers, body)
        else
            requests[i] = wrk.format("POST", "/checkout", headers, "")
        end
    end
end

function request()
    step = step % #requests + 1
    return requests[step]
end

function response(status, headers, body)
    if status < 200 or status > 299 then
        non2xx = non2xx + 1
        if non2xx <= 3 then io.stderr:write("non-2xx " .. status .. ": " .. (body or "") .. "\n") end
    end
end

function done(summary, latency, requests)
    local bad = 0
    for _, thread in ipairs(threads) do bad = bad + thread:get("non2xx") end
    local errors = summary.errors
    io.write(string.format("RESULT requests %d\n", summary.requests))
    io.write(string.format("RESULT duration_us %d\n", summary.duration))
    io.write(string.format("RESULT non2xx %d\n", bad))
    io.write(string.format("RESULT socket_errors %d\n",
        errors.connect + errors.read + errors.write + errors.timeout))
    io.write(string.format("RESULT p50_us %d\n", latency:percentile(50)))
    io.write(string.format("RESULT p99_us %d\n", latency:percentile(99)))
end

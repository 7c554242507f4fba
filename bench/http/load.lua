-- wrk script of `npm run bench:http` (bench/http/run.ts writes its inputs and reads its outputs).
--
-- Inputs, from the environment:
--   BENCH_REQUESTS  a file of request templates, one a line: METHOD \t PATH \t COOKIE \t CSRF \t BODY
--                   (CSRF and BODY empty for a read). Requests rotate over the lines, so over the
--                   customers' sessions.
--   BENCH_KEY_PREFIX  starts every Idempotency-Key; each thread adds its number and a counter, so
--                   every money request has a key of its own ([A-Za-z0-9_-], 8-100 characters).
--   BENCH_OUT       a file the summary is written to (JSON), and BENCH_OUT .. ".ids" the ids of the
--                   payments answered 201, one a line, for the check that each is in the database.
--   BENCH_RATE      optional: requests per second for all threads together (the soak). Each thread
--                   paces its connections with delay() to its share; without it wrk sends as fast
--                   as the answers come.
local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
  int clock_gettime(int clock_id, bench_timespec *tp);
]]
local timespec = ffi.new("bench_timespec")
local function now_ms()
  ffi.C.clock_gettime(1, timespec) -- CLOCK_MONOTONIC
  return tonumber(timespec.tv_sec) * 1000 + tonumber(timespec.tv_nsec) / 1e6
end

local function split_tabs(line)
  local fields, start = {}, 1
  while true do
    local tab = string.find(line, "\t", start, true)
    if not tab then
      fields[#fields + 1] = string.sub(line, start)
      return fields
    end
    fields[#fields + 1] = string.sub(line, start, tab - 1)
    start = tab + 1
  end
end

-- The main state: one entry per thread, for done() to collect their counters.
local threads = {}
local thread_count = 0

function setup(thread)
  thread_count = thread_count + 1
  thread:set("thread_number", thread_count)
  threads[#threads + 1] = thread
end

-- Per thread (each has its own Lua state).
local templates = {}
local next_template = 0
local key_prefix = ""
local key_counter = 0
local gap_ms = nil
local next_send_ms = nil
statuses = {}
ids = {}
id_count = 0

function init(args)
  for line in io.lines(os.getenv("BENCH_REQUESTS")) do
    if #line > 0 then
      local f = split_tabs(line)
      local headers = { ["Cookie"] = f[3] }
      if f[1] == "POST" then
        headers["X-CSRF-Token"] = f[4]
        headers["Content-Type"] = "application/json"
      end
      templates[#templates + 1] = { method = f[1], path = f[2], headers = headers, body = f[5] ~= "" and f[5] or nil }
    end
  end
  if #templates == 0 then error("no request templates in " .. tostring(os.getenv("BENCH_REQUESTS"))) end
  -- Threads start at different places in the rotation.
  next_template = (thread_number or 1) * 7919 % #templates
  key_prefix = os.getenv("BENCH_KEY_PREFIX") .. "-" .. tostring(thread_number or 0) .. "-"
  local rate = tonumber(os.getenv("BENCH_RATE") or "")
  if rate and rate > 0 then gap_ms = 1000 * thread_count_hint() / rate end
end

-- wrk gives a thread no count of its siblings; run.ts passes it.
function thread_count_hint()
  return tonumber(os.getenv("BENCH_THREADS") or "1")
end

function request()
  next_template = next_template % #templates + 1
  local template = templates[next_template]
  if template.method == "POST" then
    key_counter = key_counter + 1
    template.headers["Idempotency-Key"] = key_prefix .. key_counter
  end
  return wrk.format(template.method, template.path, template.headers, template.body)
end

-- Open-loop pacing for the soak: the thread's sends keep to a schedule of gap_ms apart, whatever
-- the answers' latency (as long as the connections suffice), instead of one after each answer.
function delay()
  if not gap_ms then return 0 end
  local now = now_ms()
  if not next_send_ms then next_send_ms = now end
  next_send_ms = next_send_ms + gap_ms
  local wait = next_send_ms - now
  if wait < 0 then
    -- Behind schedule by more than a second: do not burst to catch up.
    if wait < -1000 then next_send_ms = now end
    return 0
  end
  return wait
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  if status == 201 and body then
    local id = string.match(body, '"id":"([0-9a-f%-]+)"')
    if id then
      id_count = id_count + 1
      ids[id_count] = id
    end
  end
end

function done(summary, latency, requests)
  local merged = {}
  local out_ids = io.open(os.getenv("BENCH_OUT") .. ".ids", "w")
  for _, thread in ipairs(threads) do
    local thread_statuses = thread:get("statuses")
    for status, count in pairs(thread_statuses) do
      merged[status] = (merged[status] or 0) + count
    end
    local thread_ids = thread:get("ids")
    if #thread_ids > 0 then out_ids:write(table.concat(thread_ids, "\n"), "\n") end
  end
  out_ids:close()
  local status_parts = {}
  for status, count in pairs(merged) do
    status_parts[#status_parts + 1] = string.format('"%d":%d', status, count)
  end
  local e = summary.errors
  local out = io.open(os.getenv("BENCH_OUT"), "w")
  out:write(string.format(
    '{"requests":%d,"durationUs":%d,"bytes":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
      '"latencyUs":{"p50":%d,"p90":%d,"p99":%d,"p999":%d,"max":%d,"mean":%f},"statuses":{%s}}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9), latency.max, latency.mean,
    table.concat(status_parts, ",")))
  out:close()
end

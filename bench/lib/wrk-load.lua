-- wrk's script for one load of a benchmark scenario (bench/lib/load.ts starts it).
-- Arguments after `--`: first counter, id prefix, id width, body, Authorization value ('' for none).
-- Every request is POST /plants; each `$id` in the body becomes the id of that request (prefix,
-- then the counter zero-padded), the same as bodyOf in bench/lib/scenarios.ts. Prints one JSON line
-- (DriverOutput in bench/lib/load.ts: seconds and milliseconds).
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

local counter, format, parts, headers
statuses = {}

function init(args)
  -- wrk calls request() once before the load to count pipelined requests, and sends nothing of it.
  counter = tonumber(args[1]) - 1
  format = args[2]:gsub('%%', '%%%%') .. '%0' .. args[3] .. '.0f'
  parts = {}
  for part in (args[4] .. '$id'):gmatch('(.-)%$id') do table.insert(parts, part) end
  headers = { ['Content-Type'] = 'application/json' }
  if args[5] ~= '' then headers['Authorization'] = args[5] end
end

function request()
  local id = string.format(format, counter)
  counter = counter + 1
  return wrk.format('POST', '/plants', headers, table.concat(parts, id))
end

function response(status)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency)
  local counts = {}
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get('statuses')) do counts[status] = (counts[status] or 0) + n end
  end
  local byStatus = {}
  for status, n in pairs(counts) do table.insert(byStatus, string.format('"%d":%d', status, n)) end
  local e = summary.errors
  -- os.clock() is this process's CPU time, all threads, user and system: the generator's cost.
  io.write(string.format('{"requests":%d,"seconds":%.6f,"p50Ms":%.3f,"p99Ms":%.3f,"maxMs":%.3f,"statuses":{%s},"errors":%d,"timeouts":%d,"cpuSeconds":%.3f}\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, table.concat(byStatus, ','), e.connect + e.read + e.write, e.timeout, os.clock()))
end

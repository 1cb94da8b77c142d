#!/usr/bin/env bash
# End-to-end Date, DateTime and Uuid: builds tests/e2e/stdlib_values/service.fitz with the real
# `fitz build` and checks JSON bodies, query and path parameters (a malformed value is a 400
# naming the field) and, when FITZ_TEST_DATABASE_URL is set, round trips through Postgres
# (date, timestamptz, uuid and arrays; DbRow getters; ORM fields) with the service and the
# database session in several time zones: the instants and days read back never move.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
fitz=$(realpath "${1:-$root/build/bin/fitz}")
suite=stdlib-values
source "$here/service_lib.sh"

out=$("$fitz" build "$here/stdlib_values/service.fitz" -o "$work/svc" 2>&1); rc=$?
[[ $rc == 0 && -x $work/svc ]]; check "fitz build stdlib_values/service.fitz (rc $rc): $out" $?
json=(-H 'Content-Type: application/json')
booking='{"id":"6F9619FF-8B86-D011-B42D-00C04FC964FF","day":"2024-01-31","at":"2024-01-31T22:00:00+02:00"}'

for zone in UTC America/Argentina/Buenos_Aires Asia/Kolkata; do
  name=svc-${zone//\//-}
  start "$name" "$work/svc" TZ="$zone" DATABASE_URL="${FITZ_TEST_DATABASE_URL:-}"

  # ---- JSON bodies ----
  req POST /bookings "${json[@]}" -d "$booking"
  expect "[$zone] body decodes Uuid, Date, DateTime (offset normalised to UTC)" 200 \
    '{"id":"6f9619ff-8b86-d011-b42d-00c04fc964ff","day":"2024-01-31","weekday":3,"at":"2024-01-31T20:00:00Z","month_end":"2024-02-28","hour":20,"until":null}'
  req POST /bookings "${json[@]}" -d '{"id":"6f9619ff-8b86-d011-b42d-00c04fc964ff","day":"2024-02-30","at":"2024-01-31T22:00:00Z"}'
  expect "[$zone] a body date that does not exist names the field" 400 \
    "{\"error\":\"body for 'Booking': field 'day': expected Date (YYYY-MM-DD), received '2024-02-30'\"}"
  req POST /bookings "${json[@]}" -d '{"id":"nope","day":"2024-02-03","at":"2024-01-31T22:00:00Z"}'
  expect "[$zone] a malformed body uuid names the field" 400 \
    "{\"error\":\"body for 'Booking': field 'id': expected Uuid, received 'nope'\"}"
  req POST /bookings "${json[@]}" -d '{"id":"6f9619ff-8b86-d011-b42d-00c04fc964ff","day":"2024-02-03","at":5}'
  expect "[$zone] a number where a DateTime belongs" 400 \
    "{\"error\":\"body for 'Booking': field 'at': expected DateTime (RFC 3339), found Int\"}"
  req POST /bookings "${json[@]}" -d '{"id":"6f9619ff-8b86-d011-b42d-00c04fc964ff","day":"2024-02-03","at":"2024-01-31T22:00:00"}'
  expect "[$zone] a DateTime without an offset is refused" 400 \
    "{\"error\":\"body for 'Booking': field 'at': expected DateTime (RFC 3339), received '2024-01-31T22:00:00'\"}"
  req POST /bookings "${json[@]}" -d '{"id":"6f9619ff-8b86-d011-b42d-00c04fc964ff","day":"2024-02-03","at":"2024-01-31T22:00:00Z","until":"x"}'
  expect "[$zone] an optional Date field is checked too" 400 \
    "{\"error\":\"body for 'Booking': field 'until': expected Date (YYYY-MM-DD), received 'x'\"}"

  # ---- query and path parameters ----
  req GET "/days?start=2024-02-27"
  expect "[$zone] Date query parameter, optional one absent (leap year)" 200 '{"start":"2024-02-27","end":"2024-03-05","days":7,"ordered":true}'
  req GET "/days?start=2024-02-27&end=2024-03-01"
  expect "[$zone] two Date query parameters" 200 '{"start":"2024-02-27","end":"2024-03-01","days":3,"ordered":true}'
  req GET "/days?start=2023-02-29"
  expect "[$zone] a query date that does not exist" 400 "{\"error\":\"query param 'start': expected Date (YYYY-MM-DD), received '2023-02-29'\"}"
  req GET "/days"
  expect "[$zone] a missing Date query parameter" 400 "{\"error\":\"query param 'start': missing — it is required\"}"
  req GET "/ids/urn:uuid:6F9619FF-8B86-D011-B42D-00C04FC964FF"
  expect "[$zone] Uuid path parameter in urn form" 200 '{"id":"6f9619ff-8b86-d011-b42d-00c04fc964ff","text":"6f9619ff-8b86-d011-b42d-00c04fc964ff","nil":false}'
  req GET "/ids/zzz"
  expect "[$zone] a malformed Uuid path parameter" 400 "{\"error\":\"path param 'id': expected Uuid, received 'zzz'\"}"
  req GET "/at?t=2026-06-02T13:30:00-03:00"
  case $zone in
    UTC) local_text="2026-06-02T16:30:00+00:00" ;;
    America/Argentina/Buenos_Aires) local_text="2026-06-02T13:30:00-03:00" ;;
    Asia/Kolkata) local_text="2026-06-02T22:00:00+05:30" ;;
  esac
  expect "[$zone] DateTime query parameter; to_local follows TZ, in_tz does not" 200 \
    "{\"utc\":\"2026-06-02T16:30:00Z\",\"ts\":1780417800,\"fmt\":\"2026-06-02 16:30:00\",\"date\":\"2026-06-02\",\"local\":\"$local_text\",\"madrid\":\"2026-06-02T18:30:00+02:00\",\"kathmandu\":\"2026-06-02T22:15:00+05:45\",\"nowhere\":\"DateTime.in_tz: unknown time zone \`Mars/Olympus\`\"}"

  # ---- Postgres ----
  if [[ -n ${FITZ_TEST_DATABASE_URL:-} ]]; then
    # The server's own text for the timestamptz follows the session zone; the instant does not.
    for pg_zone in UTC Pacific/Auckland America/New_York; do
      case $pg_zone in
        UTC) server_text="2024-03-01 02:30:00.123456+00" ;;
        Pacific/Auckland) server_text="2024-03-01 15:30:00.123456+13" ;;
        America/New_York) server_text="2024-02-29 21:30:00.123456-05" ;;
      esac
      req GET "/db/roundtrip?zone=$pg_zone"
      expect "[$zone/pg $pg_zone] date, timestamptz, uuid and arrays round trip; get_date on a timestamptz column is an Err naming it" 200 \
        "{\"d\":\"2024-02-29\",\"t\":\"2024-03-01T02:30:00Z\",\"t_ts\":1709260200,\"same_instant\":true,\"u\":\"6f9619ff-8b86-d011-b42d-00c04fc964ff\",\"same_id\":true,\"next\":\"2024-03-01\",\"arrays\":\"{2024-02-29,2024-03-01} {6f9619ff-8b86-d011-b42d-00c04fc964ff,00000000-0000-0000-0000-000000000000}\",\"utc_text\":\"2024-03-01 02:30:00.123456\",\"server_text\":\"$server_text\",\"bad\":\"column \\\"t\\\": expected a date, got a timestamptz value \`$server_text\`\"}"
    done
    req GET /db/orm
    expect "[$zone] ORM: Uuid, Date, DateTime fields inserted, filtered and read back" 200 \
      '{"inserted_same":true,"early":1,"early_day":"2026-01-31","by_ref_day":"2026-01-31","second_day":"2026-02-28","touched":1,"moved_day":"2026-02-01","now_is_recent":true,"filters":"between=1 listed=1 both=2 on_days=1 no_due=1 has_due=1 shifted=1 by_minutes=1 by_column=2 past=2 after_raw=1"}'
  fi
  stop "$name"
done
[[ -n ${FITZ_TEST_DATABASE_URL:-} ]] || echo "stdlib-values: FITZ_TEST_DATABASE_URL is not set; the Postgres round trips were skipped"

echo "e2e $suite: $pass passed, $fail failed"
[[ $fail == 0 ]]

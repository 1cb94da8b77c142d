#!/usr/bin/env bash
# `live_embed` end to end (views.md §1.7): a built app whose `@get` handler returns its own
# `Html` page with two live roots. The page is text/html; each root is `<div id="fz-N"
# data-fz-view=.. data-fz-token=..>` rendered with `connected == false` and its props; the styles
# and the client script come once, before the first root; the token is the cookie user's
# (another user's cookie changes the SSR); a handler that calls live_embed through a helper is
# refused by `fitz check`; a component whose `async on mount` awaits is rendered after the await,
# in place (the handler's page waits for it). The socket join is tested in a browser (tests/browser/test/compiled.test.js).
set -uo pipefail
suite=live-embed
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fitz=$(realpath "${1:-$here/../../build/bin/fitz}")
source "$here/service_lib.sh"

app=$work/app
mkdir -p "$app/src"
printf '[package]\nname = "embedapp"\nversion = "0.1.0"\nedition = "2026"\n\n[bin]\nmain = "src/main.fitz"\n' > "$app/fitz.toml"
cat > "$app/src/Hello.fitzv" <<'FITZV'
component Hello {
  props { who: Str }
  state { seen: Str = "?", live: Bool = true }
  on mount {
    live = ctx.connected
    if (ctx.user != null) {
      let n = ctx.user["name"]
      seen = "{n}"
    }
  }
  <template>
    <p class="hello">hello {who}, seen by {seen}{#if live} (live){/if}</p>
  </template>
  <style scoped>
    .hello { color: green; }
  </style>
}
FITZV
cat > "$app/src/Slow.fitzv" <<'FITZV'
component Slow {
  props { n: Int }
  state { got: Int = 0 }
  async on mount {
    sleep(30).await
    got = n * 2
  }
  <template>
    <span class="slow">got {got}</span>
  </template>
}
FITZV
cat > "$app/src/main.fitz" <<'FITZ'
from Hello import Hello
from Slow import Slow

type Visitor {
    name: Str
}

@auth_provider
fn visitor(headers: Map<Str, Str>) -> Result<Visitor> {
    if (not headers.has("cookie")) {
        return Err("no session")
    }
    let c = headers["cookie"]
    if (c.starts_with("user=")) {
        return Ok(Visitor { name: c.split("=")[1] })
    }
    return Err("no session")
}

@get("/page/{name}")
fn page(name: Str) -> Html {
    let a = live_embed(Hello { who: name })
    let b = live_embed(Hello { who: "<b>again</b>" })
    return html_raw("<!doctype html><title>t</title><main>{a}</main><aside>{b}</aside>")
}

@get("/slow")
fn slow() -> Html {
    let a = live_embed(Slow { n: 21 })
    return html_raw("<div>{a}</div>")
}

@get("/plain")
fn plain() -> Html => html_raw("<p>no live roots</p>")
FITZ

out=$(cd "$app" && "$fitz" check 2>&1); rc=$?
check "the app checks clean (rc $rc): $out" $([[ $rc == 0 && -z $out ]]; echo $?)
out=$(cd "$app" && "$fitz" build -o "$app/app" 2>&1); rc=$?
check "the app builds (rc $rc): $out" $([[ $rc == 0 && -x $app/app ]]; echo $?)

if [[ -x $app/app ]]; then
  start app "$app/app" FITZ_SECRET_KEY=e2e-secret
  req GET /page/ada -H 'cookie: user=ann'
  expect "GET /page/ada" 200 "*"
  has_header "the page is html" "content-type: text/html; charset=utf-8"
  grep -qF '<main><style>.fz-disconnected' <<<"$body"
  check "the banner style comes first, in the handler's markup: $body" $?
  grep -qE '\.hello\[data-s-[0-9a-f]{8}\]' <<<"$body"
  check "the view's scoped style is on the page" $?
  [[ $(grep -oF '<script src="/_fitz/live.js?v=' <<<"$body" | wc -l) == 1 && $(grep -o '<style>' <<<"$body" | wc -l) == 2 ]]
  check "styles and the client script come once" $?
  [[ $body == *'</script>'$'\n''<div id="fz-1" data-fz-view="Hello" data-fz-token="'* ]]
  check "the first root follows the assets, with a token" $?
  grep -qE '<aside><div id="fz-2" data-fz-view="Hello" data-fz-token="[A-Za-z0-9_.-]+"' <<<"$body"
  check "the second root is numbered fz-2, without the assets again" $?
  grep -qE '>hello ada, seen by ann</p></div></main>' <<<"$body"
  check "props and the cookie's user, not connected yet" $?
  grep -qF 'hello &lt;b&gt;again&lt;/b&gt;, seen by ann' <<<"$body"
  check "props are escaped like any template value" $?
  tok_ann=$(grep -oE 'id="fz-1" data-fz-view="Hello" data-fz-token="[^"]+"' <<<"$body" | sed 's/.*data-fz-token="//; s/"$//')
  req GET /page/ada
  grep -qF 'seen by ?' <<<"$body"
  check "an anonymous request renders without a user" $?
  tok_anon=$(grep -oE 'id="fz-1" data-fz-view="Hello" data-fz-token="[^"]+"' <<<"$body" | sed 's/.*data-fz-token="//; s/"$//')
  [[ -n $tok_ann && -n $tok_anon && $tok_ann != "$tok_anon" ]]
  check "each response seals its own token" $?
  req GET /slow
  expect "a root whose async on mount awaits" 200 "*"
  grep -qE '<div><style>.*<div id="fz-1" data-fz-view="Slow" data-fz-token="[^"]+"[^>]*><span [^>]*class="slow"[^>]*>got 42</span></div></div>$' <<<"$(tr -d '\n' <<<"$body")"
  check "async on mount ran to its end before the page was rendered, in place: $body" $?
  req GET /plain
  expect "a handler returning Html" 200 "<p>no live roots</p>"
  has_header "its page is html too" "content-type: text/html; charset=utf-8"
  req GET /_fitz/live.js
  expect "the client script is served" 200 "*"
  stop app
fi

# Only the handler answers a request: live_embed in a helper is a check error.
mkdir -p "$work/helper/src"
cp "$app/fitz.toml" "$work/helper/"
cp "$app/src/Hello.fitzv" "$work/helper/src/"
printf 'from Hello import Hello\n\nfn part() -> Html => live_embed(Hello { who: "x" })\n\n@get("/")\nfn home() -> Html => part()\n' > "$work/helper/src/main.fitz"
err=$(cd "$work/helper" && "$fitz" check 2>&1); rc=$?
check "live_embed in a helper exits 1 (rc $rc)" $([[ $rc == 1 ]]; echo $?)
check "live_embed in a helper: E0564 at the call: $err" $(grep -qE 'main.fitz:3:[0-9]+: error\[E0564\]' <<<"$err"; echo $?)

echo "e2e $suite: $pass passed, $fail failed"
[[ $fail == 0 ]]

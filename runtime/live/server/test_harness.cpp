// The browserless harness of `fitz test` (views.md §4): `live_test(Counter {})` mounts a view as
// a connected page would, and `click`, `input`, `submit` find an element of the rendered tree by
// a CSS-like selector and send the event its attributes name, exactly as the client script
// would build it (handler, render-time arguments, value, form fields). A failing handler is
// rolled back like on a socket; `error()` tells the test what it said.
#include <exception>
#include <string>
#include <vector>

#include "fitz/any.h"
#include "fitz/http/json.h"
#include "fitz/live/children.h"
#include "fitz/live/frames.h"
#include "fitz/live/generated.h"
#include "fitz/live/html.h"
#include "fitz/live/instances.h"

namespace fitz::live::gen {

namespace {

// One compound selector: tag, #id, .class, [attr] and [attr=value], in any combination.
struct Compound {
  std::string tag, id;
  std::vector<std::string> classes;
  std::vector<std::pair<std::string, std::optional<std::string>>> attrs;
};

bool parse_compound(std::string_view s, Compound& c) {
  size_t i = 0;
  auto ident = [&] {
    size_t b = i;
    while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '-' || s[i] == '_' || s[i] == ':')) ++i;
    return std::string(s.substr(b, i - b));
  };
  if (i < s.size() && s[i] != '#' && s[i] != '.' && s[i] != '[') {
    c.tag = ident();
    if (c.tag == "*") c.tag.clear();
  }
  while (i < s.size()) {
    char k = s[i++];
    if (k == '#') c.id = ident();
    else if (k == '.') c.classes.push_back(ident());
    else if (k == '[') {
      std::string name = ident();
      std::optional<std::string> value;
      if (i < s.size() && s[i] == '=') {
        ++i;
        char q = i < s.size() && (s[i] == '"' || s[i] == '\'') ? s[i++] : 0;
        size_t b = i;
        while (i < s.size() && (q ? s[i] != q : s[i] != ']')) ++i;
        value = std::string(s.substr(b, i - b));
        if (q && i < s.size()) ++i;
      }
      if (i >= s.size() || s[i] != ']') return false;
      ++i;
      c.attrs.push_back({name, value});
    } else {
      return false;
    }
  }
  return !(c.tag.empty() && c.id.empty() && c.classes.empty() && c.attrs.empty());
}

bool has_class(const Node& n, const std::string& cls) {
  const Attr* a = n.find_attr("class");
  if (!a) return false;
  std::string_view v = a->value;
  size_t i = 0;
  while (i < v.size()) {
    size_t e = v.find(' ', i);
    if (e == std::string_view::npos) e = v.size();
    if (v.substr(i, e - i) == cls) return true;
    i = e + 1;
  }
  return false;
}

bool matches(const Node& n, const Compound& c) {
  if (n.kind != NodeKind::Element) return false;
  if (!c.tag.empty() && n.tag != c.tag) return false;
  if (!c.id.empty()) {
    const Attr* a = n.find_attr("id");
    if (!a || a->value != c.id) return false;
  }
  for (const std::string& cls : c.classes)
    if (!has_class(n, cls)) return false;
  for (const auto& [name, value] : c.attrs) {
    const Attr* a = n.find_attr(name);
    if (!a || (value && a->value != *value)) return false;
  }
  return true;
}

// Every element matching the descendant chain `parts`, in document order, with its ancestors
// (closest last) so events can bubble to the element that names a handler.
struct Found {
  const Node* node;
  std::vector<const Node*> ancestors;
};

void find_all(const Node& n, const std::vector<Compound>& parts, std::vector<const Node*>& path, std::vector<Found>& out) {
  if (n.kind != NodeKind::Element) return;
  if (matches(n, parts.back())) {
    // The rest of the chain must match ancestors, in order, from the closest outwards.
    size_t k = parts.size() - 1;
    for (auto it = path.rbegin(); it != path.rend() && k > 0; ++it)
      if (matches(**it, parts[k - 1])) --k;
    if (k == 0) out.push_back({&n, path});
  }
  path.push_back(&n);
  for (const Node& c : n.children) find_all(c, parts, path, out);
  path.pop_back();
}

std::string text_content(const Node& n) {
  if (n.kind == NodeKind::Text) return n.text;
  std::string s;
  for (const Node& c : n.children) s += text_content(c);
  return s;
}

// `data-fz-args`: the object of strings args_json wrote.
void parse_args(std::string_view s, Payload& out) {
  size_t i = 0;
  auto str = [&](std::string& v) {
    if (i >= s.size() || s[i] != '"') return false;
    ++i;
    while (i < s.size() && s[i] != '"') {
      char c = s[i++];
      if (c != '\\' || i >= s.size()) {
        v += c;
        continue;
      }
      char e = s[i++];
      if (e == 'n') v += '\n';
      else if (e == 'r') v += '\r';
      else if (e == 't') v += '\t';
      else if (e == 'u' && i + 4 <= s.size()) {
        v += static_cast<char>(std::stoi(std::string(s.substr(i, 4)), nullptr, 16));
        i += 4;
      } else v += e;
    }
    ++i;
    return true;
  };
  if (s.empty() || s[0] != '{') return;
  i = 1;
  while (i < s.size() && s[i] != '}') {
    std::string k, v;
    if (!str(k) || i >= s.size() || s[i] != ':') return;
    ++i;
    if (!str(v)) return;
    out.push_back({k, v});
    if (i < s.size() && s[i] == ',') ++i;
  }
}

void form_fields(const Node& n, Payload& out) {
  if (n.kind != NodeKind::Element) return;
  const Attr* name = n.find_attr("name");
  if (name && (n.tag == "input" || n.tag == "textarea" || n.tag == "select")) {
    const Attr* type = n.find_attr("type");
    std::string t = type ? type->value : "";
    if (t == "checkbox" || t == "radio") {
      if (n.find_attr("checked")) out.push_back({name->value, n.find_attr("value") ? n.find_attr("value")->value : "on"});
    } else if (n.tag == "textarea") {
      const Attr* v = n.find_attr("value");
      out.push_back({name->value, v ? v->value : text_content(n)});
    } else {
      const Attr* v = n.find_attr("value");
      out.push_back({name->value, v ? v->value : ""});
    }
  }
  for (const Node& c : n.children) form_fields(c, out);
}

Str to_str(const std::string& s) { return Str(s.data(), s.size()); }
std::string of(const Any& a) { return a.is_str() ? text_of(a.str_value()) : std::string(); }

class LiveTestBox final : public fitz::detail::AnyObj {
 public:
  LiveTestBox(std::unique_ptr<View> view, SourcePos pos) : view_(std::move(view)) {
    view_->env.connected = true;
    guarded(pos, "on mount", [&] {
      view_->mount(true);
      finish();
    });
  }
  fitz::detail::ObjKind kind() const override { return fitz::detail::ObjKind::Struct; }
  const void* type_id() const override { return fitz::detail::type_id<LiveTestBox>(); }
  void type_name(Buf& b) const override { b.lit("LiveTest"); }
  void show(Buf& b, bool) const override { b.lit("<live test>"); }

  bool call_method(const char* name, const Any* args, size_t n, SourcePos pos, Any* out) override {
    std::string_view m(name);
    auto want = [&](size_t k) {
      if (n < k) runtime_error(pos, Str::from("LiveTest." + std::string(m) + ": missing argument"));
    };
    if (m == "html") {
      *out = to_str(inner_html(render(pos)));
    } else if (m == "text") {
      want(1);
      *out = to_str(text_content(*first(pos, of(args[0])).node));
    } else if (m == "count") {
      want(1);
      Node root = render(pos);
      *out = Any(int64_t(select(root, of(args[0]), pos).size()));
    } else if (m == "error") {
      *out = error_ ? Any(to_str(*error_)) : Any();
    } else if (m == "click") {
      want(1);
      fire(pos, of(args[0]), "click", {});
      *out = Any();
    } else if (m == "input") {
      want(2);
      fire(pos, of(args[0]), "input", of(args[1]));
      *out = Any();
    } else if (m == "tick") {
      hooks(pos, std::nullopt, "");
      *out = Any();
    } else if (m == "message") {
      want(2);
      hooks(pos, of(args[0]), text_of(http::to_json(args[1])));
      *out = Any();
    } else if (m == "submit") {
      want(1);
      Payload extra;
      if (n > 1 && args[1].is_kind(fitz::detail::ObjKind::Map)) {
        const fitz::detail::AnyObj* o = args[1].obj();
        for (int64_t i = 0, len = o->len(); i < len; ++i) extra.push_back({of(o->key_at(i)), of(o->value_at(i))});
      }
      submit(pos, of(args[0]), extra);
      *out = Any();
    } else {
      return false;
    }
    return true;
  }

 private:
  template <class F>
  void guarded(SourcePos pos, const char* what, F f) {
    Panic p;
    if (catch_panic(f, &p))
      runtime_error(pos, Str::from(std::string("live_test: ") + what + " failed: " + text_of(p.message)));
  }

  Node render(SourcePos pos) {
    Node root = el("div");
    guarded(pos, "render", [&] {
      table_.begin_render(root_);
      root.child(view_->render(RenderContext{root_, true, &table_}));
      table_.end_render(root_);
    });
    return root;
  }

  // Like the client: the number on the event element or its closest ancestor (slot content
  // carries its parent's).
  static uint32_t component_of(const std::vector<const Node*>& chain, size_t upto) {
    for (size_t i = upto + 1; i-- > 0;)
      if (const Attr* c = chain[i]->find_attr("data-fz-c")) return static_cast<uint32_t>(std::stoul("0" + c->value));
    return 0;
  }

  std::vector<Found> select(const Node& root, const std::string& selector, SourcePos pos) {
    std::vector<Compound> parts;
    size_t i = 0;
    while (i < selector.size()) {
      while (i < selector.size() && selector[i] == ' ') ++i;
      size_t e = selector.find(' ', i);
      if (e == std::string::npos) e = selector.size();
      if (e > i) {
        Compound c;
        if (!parse_compound(std::string_view(selector).substr(i, e - i), c))
          runtime_error(pos, Str::from("live_test: cannot read the selector `" + selector + "`"));
        parts.push_back(std::move(c));
      }
      i = e;
    }
    if (parts.empty()) runtime_error(pos, "live_test: an empty selector");
    std::vector<Found> out;
    std::vector<const Node*> path;
    for (const Node& c : root.children) find_all(c, parts, path, out);
    return out;
  }

  Found first(SourcePos pos, const std::string& selector) {
    last_ = render(pos);
    std::vector<Found> all = select(last_, selector, pos);
    if (all.empty()) runtime_error(pos, Str::from("live_test: no element matches `" + selector + "`"));
    return all.front();
  }

  // Like the client: the closest element (itself or an ancestor) with the event's attribute.
  void fire(SourcePos pos, const std::string& selector, const std::string& event, const std::string& value) {
    Found f = first(pos, selector);
    std::vector<const Node*> chain = f.ancestors;
    chain.push_back(f.node);
    const Node* bind_target = f.node;
    if (event == "input" || event == "change") {
      const Attr* bind = bind_target->find_attr("data-fz-bind");
      if (bind) {
        std::string b = bind->value;
        size_t colon = b.find(':');
        Payload p = {{"field", b.substr(colon + 1)}, {"value", value}};
        dispatch(pos, std::string(kBindEvent), p, component_of(chain, chain.size() - 1));
        return;
      }
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const Attr* on = (*it)->find_attr("data-fz-on-" + event);
      if (!on && event == "input") on = (*it)->find_attr("data-fz-on-change");
      if (!on) continue;
      Payload p;
      if ((*it)->find_attr("data-fz-include-form"))
        for (auto a = chain.rbegin(); a != chain.rend(); ++a)
          if ((*a)->tag == "form") {
            form_fields(**a, p);
            break;
          }
      if (event == "input" || event == "change") p.push_back({"value", value});
      else if (const Attr* v = (*it)->find_attr("value")) p.push_back({"value", v->value});
      if (const Attr* args = (*it)->find_attr("data-fz-args")) parse_args(args->value, p);
      dispatch(pos, on->value, p, component_of(chain, size_t(chain.rend() - it) - 1));
      return;
    }
    runtime_error(pos, Str::from("live_test: `" + selector + "` has no `@" + event + "` handler"));
  }

  void submit(SourcePos pos, const std::string& selector, const Payload& extra) {
    Found f = first(pos, selector);
    const Node* form = f.node->tag == "form" ? f.node : nullptr;
    for (auto it = f.ancestors.rbegin(); !form && it != f.ancestors.rend(); ++it)
      if ((*it)->tag == "form") form = *it;
    const Attr* on = form ? form->find_attr("data-fz-on-submit") : nullptr;
    if (!on) runtime_error(pos, Str::from("live_test: `" + selector + "` is in no form with an `@submit` handler"));
    Payload p;
    form_fields(*form, p);
    for (const auto& kv : extra) p.push_back(kv);  // later sources win
    if (const Attr* args = form->find_attr("data-fz-args")) parse_args(args->value, p);
    std::vector<const Node*> chain = f.ancestors;
    chain.push_back(f.node);
    size_t at = chain.size() - 1;
    while (at > 0 && chain[at] != form) --at;
    dispatch(pos, on->value, p, component_of(chain, at));
  }

  // The frame a browser would send, through the server's own parser first: an event the server
  // refuses never reaches the view in a browser, so it must not reach it here either. The client
  // sends the payload as an object, where a later source of a key replaces an earlier one.
  static std::optional<std::string> refused(const std::string& event, const Payload& p) {
    Buf b;
    http::JsonWriter w(b);
    w.begin_object();
    w.key("t");
    w.value("ev");
    w.key("v");
    w.value("fz-1");
    w.key("ref");
    w.value(1);
    w.key("c");
    w.value(1);
    w.key("e");
    w.value(http::Text(event.data(), event.size()));
    w.key("p");
    w.begin_object();
    for (size_t i = 0; i < p.size(); ++i) {
      bool replaced = false;
      for (size_t j = i + 1; j < p.size() && !replaced; ++j) replaced = p[j].first == p[i].first;
      if (replaced) continue;
      w.key(http::Text(p[i].first.data(), p[i].first.size()));
      w.value(http::Text(p[i].second.data(), p[i].second.size()));
    }
    w.end_object();
    w.end_object();
    FrameResult r = parse_client_frame(std::string_view(b.data(), b.size()));
    if (r.ok()) return std::nullopt;
    return r.message;
  }

  // An async handler or hook runs to its end before the test goes on: a test runs outside
  // any server loop, so waiting here stalls nothing (the socket awaits it instead).
  void finish() {
    if (view_->has_started()) block_on(view_->take_started());
  }

  // `tick()` (no topic): every `on every` hook once; `message(topic, v)`: every `on message`
  // hook subscribed to `topic`, with `v` as JSON, as pubsub would deliver it. The root's hooks
  // in declaration order, then its children's (as rendered now, parents first). Each runs like
  // an event: a failing one is rolled back and reported by `error()`.
  void hooks(SourcePos pos, const std::optional<std::string>& topic, const std::string& json) {
    last_ = render(pos);
    std::vector<std::pair<uint32_t, uint32_t>> runs;  // (instance number, hook)
    auto collect = [&](uint32_t number, const View& v) {
      if (!topic) {
        for (const TimerSpec& t : v.timers()) runs.push_back({number, t.hook});
        return;
      }
      for (const Subscription& s : v.subscriptions())
        if (s.kind == Subscription::Kind::Message && s.topic == *topic) runs.push_back({number, s.hook});
    };
    collect(root_, *view_);
    for (auto& [number, child] : descendants(*view_)) collect(number, *child);
    error_.reset();
    // Not a structured binding: clang 14 cannot capture one in the lambda below.
    for (const std::pair<uint32_t, uint32_t>& run : runs) {
      uint32_t number = run.first, hook = run.second;
      std::optional<std::string> failed = run_rolled_back([&] { return dispatch_hook(*view_, root_, number, hook, json); });
      if (failed) error_ = failed;
    }
  }

  // As the socket does: a copy of the state first, put back when the handler fails.
  void dispatch(SourcePos, const std::string& event, const Payload& p, uint32_t component) {
    if (auto why = refused(event, p)) {
      error_ = "the server refuses this event: " + *why;
      return;
    }
    error_ = run_rolled_back([&] { return dispatch_event(*view_, root_, component, event, p); });
  }

  // Runs `f` (and any task it started) on the view; on failure puts the state taken before it
  // back and says why.
  template <class F>
  std::optional<std::string> run_rolled_back(F f) {
    std::unique_ptr<View> before = view_->snapshot();
    std::optional<EventError> failed;
    Panic panic;
    if (catch_panic(
            [&] {
              failed = f();
              finish();
            },
            &panic))
      failed = EventError{"handler", text_of(panic.message)};
    if (!failed) return std::nullopt;
    before->env = view_->env;
    view_ = std::move(before);
    return failed->message.empty() ? failed->code : failed->message;
  }

  std::unique_ptr<View> view_;
  InstanceTable table_;
  uint32_t root_ = table_.root("fz-1");
  std::optional<std::string> error_;
  Node last_;
};

}  // namespace

Any live_test(std::unique_ptr<View> view, SourcePos pos) { return Any(new LiveTestBox(std::move(view), pos)); }

}  // namespace fitz::live::gen

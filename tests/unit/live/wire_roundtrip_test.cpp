// The wire contract of `patch` frames: ops written as JSON (with HTML for new subtrees) are
// read back the way a client reads them — a small JSON reader over the runtime's JsonReader
// and a parser for the HTML the serializer writes — then applied. Random trees must still
// converge, so the JSON form (paths, {"k"} segments, before keys, prop values) and the HTML
// (escaping, keys, scopes, void elements) carry everything the client needs.
#include <gtest/gtest.h>

#include <random>

#include "fitz/http/json.h"
#include "fitz/live/diff.h"
#include "fitz/live/html.h"

namespace fitz::live {
namespace {

// ---- HTML as the serializer writes it (double-quoted attributes, five entities) ----------

std::string decode_entities(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    if (s[i] != '&') {
      out.push_back(s[i++]);
      continue;
    }
    static const std::pair<std::string_view, char> kEnt[] = {
        {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&#39;", '\''}};
    bool done = false;
    for (auto [ent, c] : kEnt)
      if (s.substr(i, ent.size()) == ent) {
        out.push_back(c);
        i += ent.size();
        done = true;
        break;
      }
    if (!done) ADD_FAILURE() << "bare & in serialized HTML: " << s;
    if (!done) out.push_back(s[i++]);
  }
  return out;
}

class HtmlParser {
 public:
  explicit HtmlParser(std::string_view s) : s_(s) {}

  // Children until `</tag>` (or the end when tag is empty).
  void nodes(Node& parent, std::string_view tag) {
    while (p_ < s_.size()) {
      if (s_.substr(p_, 2) == "</") {
        size_t close = s_.find('>', p_);
        EXPECT_EQ(s_.substr(p_ + 2, close - p_ - 2), tag);
        p_ = close + 1;
        return;
      }
      if (s_[p_] == '<') {
        parent.child(element());
        continue;
      }
      size_t lt = s_.find('<', p_);
      if (lt == std::string_view::npos) lt = s_.size();
      parent.child(text(decode_entities(s_.substr(p_, lt - p_))));
      p_ = lt;
    }
    EXPECT_TRUE(tag.empty()) << "unclosed <" << tag << ">";
  }

  Node element() {
    ++p_;  // '<'
    size_t end = p_;
    while (end < s_.size() && s_[end] != ' ' && s_[end] != '>') ++end;
    Node n = el(s_.substr(p_, end - p_));
    p_ = end;
    while (p_ < s_.size() && s_[p_] == ' ') {
      size_t eq = s_.find("=\"", p_);
      std::string name(s_.substr(p_ + 1, eq - p_ - 1));
      size_t q = s_.find('"', eq + 2);
      std::string value = decode_entities(s_.substr(eq + 2, q - eq - 2));
      p_ = q + 1;
      if (name == "data-fz-key")
        n.key = Key::str(value);
      else if (name.rfind("data-s-", 0) == 0)
        n.scope = name.substr(7);
      else
        n.attrs.push_back(Attr{name, value});
    }
    EXPECT_EQ(s_[p_], '>');
    ++p_;
    if (!is_void_element(n.tag)) nodes(n, n.tag);
    return n;
  }

 private:
  std::string_view s_;
  size_t p_ = 0;
};

Node parse_one(std::string_view html) {
  Node holder = el("template");
  HtmlParser(html).nodes(holder, "");
  EXPECT_EQ(holder.children.size(), 1u) << html;
  return holder.children.empty() ? Node() : holder.children[0];
}

// ---- ops JSON as the client reads it ------------------------------------------------------

std::string read_s(http::JsonReader& r) {
  Str s;
  EXPECT_TRUE(r.read_str(&s));
  return std::string(s.data(), s.size());
}

Key read_key(http::JsonReader& r) {
  if (r.peek() == http::JsonKind::Null) {
    r.read_null();
    return Key();
  }
  if (r.peek() == http::JsonKind::Number) {
    int64_t i = 0;
    r.read_int(&i);
    return Key::integer(i);
  }
  return Key::str(read_s(r));
}

std::vector<Op> ops_from_json(const std::string& json) {
  std::vector<Op> ops;
  http::JsonReader r(json.data(), json.size());
  EXPECT_TRUE(r.begin_array());
  while (r.next_element()) {
    Op op;
    EXPECT_TRUE(r.begin_array());
    r.next_element();
    std::string name = read_s(r);
    r.next_element();
    r.begin_array();
    while (r.next_element()) {
      if (r.peek() == http::JsonKind::Number) {
        int64_t i = 0;
        r.read_int(&i);
        op.path.push_back(PathSeg::at(uint32_t(i)));
      } else {
        http::Text k;
        r.begin_object();
        EXPECT_TRUE(r.next_key(&k));
        EXPECT_EQ(k.str(), Str("k"));
        op.path.push_back(PathSeg::keyed(read_key(r)));
        EXPECT_FALSE(r.next_key(&k));
      }
    }
    auto next = [&] { EXPECT_TRUE(r.next_element()) << name; };
    if (name == "text") {
      op.kind = OpKind::Text;
      next(), op.value = read_s(r);
    } else if (name == "attr") {
      op.kind = OpKind::Attr;
      next(), op.name = read_s(r);
      next(), op.value = read_s(r);
    } else if (name == "rmattr") {
      op.kind = OpKind::RmAttr;
      next(), op.name = read_s(r);
    } else if (name == "prop") {
      op.kind = OpKind::Prop;
      next(), op.name = read_s(r);
      next();
      if (r.peek() == http::JsonKind::Null) {
        r.read_null();
        op.present = false;
      } else if (r.peek() == http::JsonKind::Bool) {
        bool b = false;
        r.read_bool(&b);
        EXPECT_TRUE(b);
      } else {
        op.value = read_s(r);
      }
    } else if (name == "replace") {
      op.kind = OpKind::Replace;
      next(), op.node = parse_one(read_s(r));
    } else if (name == "insert") {
      op.kind = OpKind::Insert;
      int64_t i = 0;
      next(), r.read_int(&i);
      op.index = uint32_t(i);
      next(), op.node = parse_one(read_s(r));
    } else if (name == "remove") {
      op.kind = OpKind::Remove;
    } else if (name == "kmove") {
      op.kind = OpKind::KMove;
      next(), op.key = read_key(r);
      next(), op.before = read_key(r);
    } else if (name == "kinsert") {
      op.kind = OpKind::KInsert;
      next(), op.node = parse_one(read_s(r));
      next(), op.before = read_key(r);
    } else if (name == "kremove") {
      op.kind = OpKind::KRemove;
      next(), op.key = read_key(r);
    } else {
      ADD_FAILURE() << "unknown op " << name;
    }
    EXPECT_FALSE(r.next_element()) << "extra fields in " << name;
    ops.push_back(std::move(op));
  }
  EXPECT_TRUE(r.ok() && r.finish()) << json;
  return ops;
}

// ---- random trees -------------------------------------------------------------------------

// prefix + n (GCC 12 warns falsely, -Wrestrict, on `"x" + std::to_string(n)`).
std::string wire_name(const char* prefix, int n) {
  std::string s(prefix);
  s += std::to_string(n);
  return s;
}

struct WireGen {
  std::mt19937 rng;
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }

  std::string value() {
    static const char* kValues[] = {"a", "b & c", "\"q\"", "<x>", "it's", "", "/path?a=1&b=2"};
    return kValues[pick(7)];
  }

  Node element(int depth) {
    static const char* kTags[] = {"div", "p", "ul", "li", "input", "option", "span", "br"};
    Node n = el(kTags[pick(8)]);
    if (pick(4) == 0) n.scope_attr("0a1b2c3d");
    for (int i = pick(3); i > 0; --i) {
      static const char* kAttrs[] = {"class", "title", "value", "href", "data-v"};
      n.attr(kAttrs[pick(5)], value());
    }
    if (pick(3) == 0) n.bool_attr(pick(2) ? "checked" : "selected", true);
    if (depth == 0 || is_void_element(n.tag)) return n;
    if (pick(4) == 0) {
      std::vector<int> ids;
      for (int i = 0; i < 12; ++i) ids.push_back(i);
      std::shuffle(ids.begin(), ids.end(), rng);
      for (int i = pick(8); i > 0; --i) {
        Node row = element(depth - 1);
        row.key = pick(2) ? Key::integer(ids[size_t(i)]) : Key::str(wire_name("s", ids[size_t(i)]));
        n.child(std::move(row));
      }
      return n;
    }
    for (int i = pick(4); i > 0; --i) {
      if (pick(3) == 0)
        n.child(text(value()));
      else
        n.child(element(depth - 1));
    }
    return n;
  }
};

// A keyed list after an edit: shuffled, one row dropped, a new row added.
void edit(WireGen& g, Node& n) {
  if (n.kind != NodeKind::Element) return;
  bool keyed = !n.children.empty();
  for (const Node& c : n.children) keyed = keyed && c.kind == NodeKind::Element && !c.key.empty();
  if (keyed && g.pick(2)) {
    std::shuffle(n.children.begin(), n.children.end(), g.rng);
    if (g.pick(2)) n.children.pop_back();
    if (g.pick(2)) {
      Node row = g.element(1);
      row.key = Key::str(wire_name("new", g.pick(1000)));
      n.children.insert(n.children.begin() + g.pick(int(n.children.size()) + 1), std::move(row));
    }
  } else if (g.pick(4) == 0) {
    n.attr("class", g.value());
  } else if (g.pick(6) == 0 && !n.children.empty()) {
    n.children[size_t(g.pick(int(n.children.size())))] = g.element(1);
    std::vector<Node> cs = std::move(n.children);
    n.children.clear();
    n.children_from(std::move(cs));
  }
  for (Node& c : n.children)
    if (g.pick(2)) edit(g, c);
}

TEST(LiveWire, HtmlParsesBackToTheTree) {
  for (uint32_t seed = 1; seed <= 500; ++seed) {
    WireGen g{std::mt19937(seed)};
    Node n = el("div").child(g.element(3));
    Node back = parse_one(to_html(n));
    ASSERT_TRUE(equivalent(back, n)) << to_html(n);
  }
}

TEST(LiveWire, OpsReadFromJsonConverge) {
  for (uint32_t seed = 1; seed <= 2000; ++seed) {
    WireGen g{std::mt19937(seed)};
    Node a = el("div").attr("id", "fz-1");
    for (int i = 1 + g.pick(3); i > 0; --i) a.child(g.element(3));
    Node b = a;
    edit(g, b);
    DiffResult r = diff(a, b);
    ASSERT_FALSE(r.needs_full);
    std::string json = ops_to_json(r.ops);
    std::vector<Op> ops = ops_from_json(json);
    ASSERT_EQ(ops.size(), r.ops.size());
    Node c = a;
    std::string err;
    ASSERT_TRUE(apply_ops(ops, c, &err)) << "seed " << seed << ": " << err << "\n" << json;
    ASSERT_TRUE(equivalent(c, b)) << "seed " << seed << "\n" << json << "\n" << to_html(c) << "\n" << to_html(b);
  }
}

}  // namespace
}  // namespace fitz::live

// The node tree a compiled live-view render function builds (views.md §1.4, §2.3): elements,
// text and raw Html. The differ compares two of these; the serializer turns one into HTML.
//
// A tree is a plain value (children held by value) rather than an arena with ids: a render
// builds a fresh tree, hands it to the differ once and then keeps it as the baseline, and the
// differ's ops carry whole subtrees, so value semantics keep ownership obvious.
//
//   using namespace fitz::live;
//   Node root = el("div").attr("id", "fz-1")
//       .child(el("p").scope("1a2b3c4d").child(text("Count: " + std::to_string(n))))
//       .child(el("button").bool_attr("disabled", busy).child(text("+")));
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace fitz::live {

// A loop key (`{#for x in xs key=x.id}`): none, a Str or an Int. Keys compare by their wire
// form (`as_string`), which is also what `data-fz-key` holds, so "1" and 1 are the same key.
class Key {
 public:
  Key() = default;
  static Key str(std::string s) { return Key(std::move(s)); }
  static Key integer(int64_t i) { return Key(i); }
  bool empty() const { return std::holds_alternative<std::monostate>(v_); }
  bool is_int() const { return std::holds_alternative<int64_t>(v_); }
  bool is_str() const { return std::holds_alternative<std::string>(v_); }
  int64_t as_int() const { return std::get<int64_t>(v_); }
  const std::string& as_str() const { return std::get<std::string>(v_); }
  std::string as_string() const;  // "" when empty
  bool operator==(const Key& o) const;  // by wire form, without allocating

 private:
  explicit Key(std::string s) : v_(std::move(s)) {}
  explicit Key(int64_t i) : v_(i) {}
  std::variant<std::monostate, std::string, int64_t> v_;
};

enum class NodeKind : uint8_t { Element, Text, Html };

// A boolean attribute is one with an empty value: it is serialized as `disabled=""` (every
// attribute is double-quoted, §1.4), which the browser reads exactly like `disabled`.
struct Attr {
  std::string name;
  std::string value;
  bool operator==(const Attr&) const = default;
};

// Mixes a loop iteration (1-based) into the iterations around it, so that the nodes one
// template site emits in nested unkeyed loops stay apart. A collision only costs the differ
// an op or two (matching by identity is a heuristic; its ops are correct whatever it pairs).
constexpr uint64_t iteration(uint64_t outer, int64_t index) {
  return outer * 0x100000001b3ull ^ static_cast<uint64_t>(index);
}

struct Node {
  NodeKind kind = NodeKind::Element;
  // Identity for the differ (views.md §2.3, §1.5): the template site that emitted the node (a
  // compile-time number, 0 for trees built by hand: those diff by position) and the unkeyed
  // loop iterations around it (`iteration`; keyed loops identify by `key`). Siblings match by
  // (site, iter, key), so an `{#if}` turning on in front of them is one `insert`.
  uint32_t site = 0;
  uint64_t iter = 0;
  std::string tag;               // Element: lower-case
  std::string text;              // Text: the unescaped text; Html: the raw markup
  std::vector<Attr> attrs;       // Element, in template order; names unique
  std::vector<Node> children;    // Element
  Key key;                       // Element in a keyed loop
  std::string scope;             // Element: 8 hex digits h of `data-s-h` (§1.6), or ""
  bool is_static = false;        // Element: no interpolation below; the differ skips it

  bool operator==(const Node&) const = default;

  // Builder methods, for lvalues and (moving) for temporaries. `attr` replaces an existing
  // attribute of the same name and filters URL attributes (see `safe_attr_value`).
  Node& attr(std::string name, std::string value) &;
  Node&& attr(std::string name, std::string value) && { return std::move(attr(std::move(name), std::move(value))); }
  // Present (value "") only when `on` is true (§1.4: null counts as false, decided by codegen).
  Node& bool_attr(std::string name, bool on) &;
  Node&& bool_attr(std::string name, bool on) && { return std::move(bool_attr(std::move(name), on)); }
  Node& with_key(Key k) &;
  Node&& with_key(Key k) && { return std::move(with_key(std::move(k))); }
  Node& scope_attr(std::string h) &;
  Node&& scope_attr(std::string h) && { return std::move(scope_attr(std::move(h))); }
  Node& mark_static() &;
  // Sets the identity (for a child component's root: the parent's site for that use).
  Node& at(uint32_t s, uint64_t it) & {
    site = s;
    iter = it;
    return *this;
  }
  Node&& at(uint32_t s, uint64_t it) && { return std::move(at(s, it)); }
  Node&& mark_static() && { return std::move(mark_static()); }
  // Appends a child the way the browser's parser would see it: an empty text is dropped (it
  // makes no DOM node) and a text after a text is merged into it (keeping the first one's
  // identity), so paths over this tree equal paths over the DOM.
  Node& child(Node c) &;
  Node&& child(Node c) && { return std::move(child(std::move(c))); }
  // For loops: appends every node.
  Node& children_from(std::vector<Node> cs) &;
  Node&& children_from(std::vector<Node> cs) && { return std::move(children_from(std::move(cs))); }

  const Attr* find_attr(std::string_view name) const;
  bool has_raw_child() const;  // any Html child (see diff.h: such children are opaque)
};

// Factories for generated code. `el` lower-cases the tag. `site` and `iter`: see Node.
Node el(std::string_view tag);
Node el(std::string_view tag, uint32_t site, uint64_t iter = 0);
Node text(std::string s);
Node text(std::string s, uint32_t site, uint64_t iter = 0);
Node html_raw(std::string markup);

// The attribute names whose values are URLs (§1.4): href, src, action, formaction, poster.
bool is_url_attr(std::string_view name);
// True when `url` is http(s), mailto, tel or relative, after the browser's own clean-up
// (leading/trailing C0 controls and spaces stripped, tabs and newlines removed anywhere).
bool is_safe_url(std::string_view url);
// `value`, or "#" when `name` is a URL attribute and the URL is not safe.
std::string safe_attr_value(std::string_view name, std::string value);
// Attribute names the serializer writes: [a-z_:][a-z0-9_:.-]*, not `on*` (event handlers are
// compile errors, §1.4) and not the runtime's own `data-fz-key`.
bool is_valid_attr_name(std::string_view name);

// Equality as the DOM sees it: like ==, except that attribute order does not matter,
// attributes with invalid names (never written) are ignored, and so are `is_static`, `site`
// and `iter`.
bool equivalent(const Node& a, const Node& b);

}  // namespace fitz::live

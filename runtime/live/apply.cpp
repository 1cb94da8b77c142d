// The ops' JSON form (what `patch` frames carry) and the applier, which replays ops on a node
// tree exactly as the client replays them on the DOM: strictly in order, paths resolved
// afresh for each op.
#include <algorithm>

#include "fitz/http/json.h"
#include "json_text.h"
#include "fitz/live/diff.h"
#include "fitz/live/html.h"

namespace fitz::live {

const char* op_name(OpKind k) {
  switch (k) {
    case OpKind::Text: return "text";
    case OpKind::Attr: return "attr";
    case OpKind::RmAttr: return "rmattr";
    case OpKind::Prop: return "prop";
    case OpKind::Replace: return "replace";
    case OpKind::Insert: return "insert";
    case OpKind::Remove: return "remove";
    case OpKind::KMove: return "kmove";
    case OpKind::KInsert: return "kinsert";
    case OpKind::KRemove: return "kremove";
  }
  return "?";
}

namespace {

using detail::json_text;

using http::JsonWriter;
using http::Text;


void write_key(JsonWriter& w, const Key& k) {
  if (k.empty())
    w.null();
  else if (k.is_int() && k.as_int() >= -(int64_t(1) << 53) && k.as_int() <= (int64_t(1) << 53))
    w.value(k.as_int());
  else if (k.is_int())  // beyond a JS number's exact range: the client compares strings anyway
    w.value(json_text(k.as_string()));
  else
    w.value(json_text(k.as_str()));
}

void write_path(JsonWriter& w, const Path& p) {
  w.begin_array();
  for (const PathSeg& s : p) {
    if (s.key.empty()) {
      w.value(int64_t(s.index));
    } else {
      w.begin_object();
      w.key("k");
      write_key(w, s.key);
      w.end_object();
    }
  }
  w.end_array();
}

void write_op(JsonWriter& w, const Op& op) {
  w.begin_array();
  w.value(op_name(op.kind));
  write_path(w, op.path);
  switch (op.kind) {
    case OpKind::Text: w.value(json_text(op.value)); break;
    case OpKind::Attr:
      w.value(json_text(op.name));
      // The differ copies values from trees the builder filtered; filter again so an op can
      // never carry what the serializer would refuse.
      w.value(json_text(safe_attr_value(op.name, op.value)));
      break;
    case OpKind::RmAttr: w.value(json_text(op.name)); break;
    case OpKind::Prop:
      w.value(json_text(op.name));
      if (!op.present)
        w.null();
      else if (op.name == "value")
        w.value(json_text(op.value));
      else
        w.value(true);  // checked / selected present
      if (op.force) w.value(true);
      break;
    case OpKind::Replace: w.value(json_text(to_html(op.node))); break;
    case OpKind::Insert:
      w.value(int64_t(op.index));
      w.value(json_text(to_html(op.node)));
      break;
    case OpKind::Remove: break;
    case OpKind::KMove:
      write_key(w, op.key);
      write_key(w, op.before);
      break;
    case OpKind::KInsert:
      w.value(json_text(to_html(op.node)));
      write_key(w, op.before);
      break;
    case OpKind::KRemove: write_key(w, op.key); break;
  }
  w.end_array();
}

bool fail(std::string* error, const Op& op, const char* why) {
  if (error) *error = std::string(op_name(op.kind)) + ": " + why;
  return false;
}

// The child of `n` that a segment names, or null.
Node* step(Node& n, const PathSeg& s) {
  if (n.kind != NodeKind::Element) return nullptr;
  if (s.key.empty()) return s.index < n.children.size() ? &n.children[s.index] : nullptr;
  const Key& k = s.key;
  for (Node& c : n.children)
    if (c.kind == NodeKind::Element && c.key == k) return &c;
  return nullptr;
}

Node* resolve(Node& root, const Path& p, size_t len) {
  Node* n = &root;
  for (size_t i = 0; i < len && n; ++i) n = step(*n, p[i]);
  return n;
}

std::vector<Node>::iterator find_key(Node& parent, const Key& k) {
  return std::find_if(parent.children.begin(), parent.children.end(),
                      [&](const Node& c) { return c.kind == NodeKind::Element && c.key == k; });
}

void set_attr(Node& n, const std::string& name, const std::string& value) {
  for (Attr& a : n.attrs)
    if (a.name == name) {
      a.value = value;
      return;
    }
  n.attrs.push_back(Attr{name, value});
}

void remove_attr(Node& n, const std::string& name) {
  n.attrs.erase(std::remove_if(n.attrs.begin(), n.attrs.end(), [&](const Attr& a) { return a.name == name; }),
                n.attrs.end());
}

bool apply_one(const Op& op, Node& root, std::string* error) {
  switch (op.kind) {
    case OpKind::Text:
    case OpKind::Attr:
    case OpKind::RmAttr:
    case OpKind::Prop: {
      Node* n = resolve(root, op.path, op.path.size());
      if (!n) return fail(error, op, "path does not resolve");
      if (op.kind == OpKind::Text) {
        if (n->kind != NodeKind::Text) return fail(error, op, "not a text node");
        n->text = op.value;
      } else if (n->kind != NodeKind::Element) {
        return fail(error, op, "not an element");
      } else if (op.kind == OpKind::Attr) {
        set_attr(*n, op.name, safe_attr_value(op.name, op.value));
      } else if (op.kind == OpKind::RmAttr || !op.present) {
        remove_attr(*n, op.name);
      } else {
        set_attr(*n, op.name, op.value);  // the wire sends a bool for checked/selected
      }
      return true;
    }
    case OpKind::Replace:
    case OpKind::Remove: {
      if (op.path.empty()) return fail(error, op, "the root cannot be replaced or removed");
      Node* parent = resolve(root, op.path, op.path.size() - 1);
      if (!parent || !step(*parent, op.path.back())) return fail(error, op, "path does not resolve");
      Node* n = step(*parent, op.path.back());
      if (op.kind == OpKind::Replace) {
        *n = op.node;
      } else {
        parent->children.erase(parent->children.begin() + (n - parent->children.data()));
      }
      return true;
    }
    case OpKind::Insert: {
      Node* parent = resolve(root, op.path, op.path.size());
      if (!parent || parent->kind != NodeKind::Element) return fail(error, op, "path does not resolve");
      if (op.index > parent->children.size()) return fail(error, op, "index out of range");
      parent->children.insert(parent->children.begin() + op.index, op.node);
      return true;
    }
    case OpKind::KMove:
    case OpKind::KInsert:
    case OpKind::KRemove: {
      Node* parent = resolve(root, op.path, op.path.size());
      if (!parent || parent->kind != NodeKind::Element) return fail(error, op, "path does not resolve");
      Node moving;
      if (op.kind != OpKind::KInsert) {
        auto it = find_key(*parent, op.key);
        if (it == parent->children.end()) return fail(error, op, "no child with that key");
        moving = std::move(*it);
        parent->children.erase(it);
        if (op.kind == OpKind::KRemove) return true;
      } else {
        if (find_key(*parent, op.node.key) != parent->children.end())
          return fail(error, op, "the key is already present");
        moving = op.node;
      }
      auto at = parent->children.end();
      if (!op.before.empty()) {
        at = find_key(*parent, op.before);
        if (at == parent->children.end()) return fail(error, op, "no child with the before key");
      }
      parent->children.insert(at, std::move(moving));
      return true;
    }
  }
  return fail(error, op, "unknown op");
}

}  // namespace

std::string ops_to_json(const std::vector<Op>& ops) {
  Buf b;
  JsonWriter w(b);
  w.begin_array();
  for (const Op& op : ops) write_op(w, op);
  w.end_array();
  return std::string(b.data(), b.size());
}

bool apply_ops(const std::vector<Op>& ops, Node& root, std::string* error) {
  for (const Op& op : ops)
    if (!apply_one(op, root, error)) return false;
  return true;
}

}  // namespace fitz::live

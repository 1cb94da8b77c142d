// The differ of live views (views.md §2.3): compares the tree last sent with a new render and
// returns DOM ops `[op, path, ...]`, and the applier that replays those ops on a node tree
// (what the client does to the DOM; the tests check apply(diff(a, b), a) == b).
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "fitz/live/node.h"

namespace fitz::live {

// One path segment: a child index, or `{"k": key}` for a child of a keyed list.
struct PathSeg {
  uint32_t index = 0;
  Key key;  // non-empty: a keyed segment (index unused)
  static PathSeg at(uint32_t i) { return PathSeg{i, Key()}; }
  static PathSeg keyed(Key k) { return PathSeg{0, std::move(k)}; }
  bool operator==(const PathSeg&) const = default;
};
using Path = std::vector<PathSeg>;

enum class OpKind : uint8_t { Text, Attr, RmAttr, Prop, Replace, Insert, Remove, KMove, KInsert, KRemove };
const char* op_name(OpKind k);  // "text", "attr", ..., "kremove"

// One op. Which fields matter depends on the kind (the JSON form, in order):
//   text    path text                    attr  path name value      rmattr path name
//   prop    path name value|null [force] (value: a string for `value`, a bool for `checked`
//                                          and `selected`; null when the attribute went away)
//   replace path html                    insert parent index html   remove path
//   kmove   parent key before|null       kinsert parent html before|null
//   kremove parent key
// `node` holds the subtree of replace / insert / kinsert; `html` is rendered from it.
struct Op {
  OpKind kind = OpKind::Text;
  Path path;            // the node, or the parent for insert and the k* ops
  std::string name;     // attr / rmattr / prop
  std::string value;    // text, attr value, prop value
  bool present = true;  // prop: false means null (attribute removed)
  bool force = false;   // prop: also on the focused element
  uint32_t index = 0;   // insert
  Key key;              // kmove / kremove
  Key before;           // kmove / kinsert: empty means null (append)
  Node node;            // replace / insert / kinsert
};

struct DiffResult {
  std::vector<Op> ops;
  // The change cannot be expressed as ops (the root's tag or key changed, or the root holds
  // raw Html that changed): send `full` instead.
  bool needs_full = false;
  // For the log (no global logger here): duplicate keys that fell back to positional diffing.
  std::vector<std::string> warnings;
};

// `old_root` and `new_root` are the live root elements (the runtime owns the root div).
DiffResult diff(const Node& old_root, const Node& new_root);

// The ops as a JSON array, e.g. [["text",[0,1],"Count: 3"],["kmove",[2],7,null]]; a path is
// an array of segments, each an index or {"k": key}: ["attr",[1,{"k":"a"},0],"class","x"].
std::string ops_to_json(const std::vector<Op>& ops);

// (Not `apply`: std::apply would be found by ADL.) Applies the ops in order to `root`; false (with `*error` set) at the first op whose path or
// key does not resolve, leaving the ops before it applied, as a client would.
bool apply_ops(const std::vector<Op>& ops, Node& root, std::string* error = nullptr);

// The attributes the client sets as live properties (input/textarea/select `value`, input
// `checked`, option `selected`), sent as `prop` rather than `attr`.
bool is_live_prop(std::string_view tag, std::string_view attr);

}  // namespace fitz::live

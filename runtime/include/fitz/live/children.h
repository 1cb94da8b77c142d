// Child components of a live view (views.md §1.4 "Children", §1.5): the instances a parent's
// template renders, owned by the parent and keyed by their identity within it (static position
// in the template plus loop key), so a child keeps its state across the parent's renders while
// that identity lasts. The numbers in `data-fz-c` come from the connection's InstanceTable;
// `dispatch_event` resolves one back to its instance and bubbles `emit` to the parents' `@evt=`
// handlers.
//
// A parent's render calls, per child node: `begin` once, `render` for each child it meets, then
// `end`, which unmounts the children not met again (deepest first).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fitz/live/node.h"
#include "fitz/live/view.h"

namespace fitz::live {

// `@picked="on_picked(extra: e)"` on a child: the parent handler an emitted event runs, and
// the render-time arguments that join the emitted payload (they win, as on the client).
struct ChildBinding {
  std::string event;
  std::string handler;
  Payload args;
};

class ChildTable {
 public:
  struct Entry {
    std::unique_ptr<View> view;
    uint32_t number = 0;
    std::vector<ChildBinding> bindings;
    bool seen = false;
  };

  ChildTable() = default;
  // A copy holds snapshots of the children: rolling a parent back rolls its children back.
  ChildTable(const ChildTable& o);
  ChildTable& operator=(const ChildTable& o);
  ChildTable(ChildTable&&) = default;
  ChildTable& operator=(ChildTable&&) = default;

  void begin();
  // The child at `position` (and `loop_key`, empty outside loops) of the parent rendering with
  // `rc` and `env`: made by `make` (and mounted) when new, else refreshed with `update` (its
  // props, §1.2); then rendered with its number and `slots`. Throws when the connection's
  // instance table refuses a number (too many instances: the view crashes, §2.6).
  Node render(const RenderContext& rc, const ViewEnv& env, uint32_t position, const Key& loop_key,
              const std::function<std::unique_ptr<View>()>& make, const std::function<void(View&)>& update,
              std::vector<ChildBinding> bindings, const Slots& slots);
  // Unmounts the children `render` did not meet since `begin` (only when connected: the plain
  // GET render never unmounts) and forgets them.
  void end(const RenderContext& rc);
  // Unmounts every child, deepest first (the parent is going away).
  void unmount_all();

  const std::map<std::string, Entry, std::less<>>& entries() const { return entries_; }
  std::map<std::string, Entry, std::less<>>& entries() { return entries_; }

 private:
  std::map<std::string, Entry, std::less<>> entries_;  // by identity within the parent
};

// Runs event `name` on the instance numbered `c` under the root view `root` (numbered
// `root_number`): the root itself or one of its descendants. Events a handler emits run the
// bound handler of its parent, and so on upwards (an emit with no binding is dropped). An
// unknown number is an EventError with code "component". Any failure leaves partial changes
// behind: the caller rolls the whole root back (its snapshot holds the children too).
std::optional<EventError> dispatch_event(View& root, uint32_t root_number, uint32_t c, std::string_view name,
                                         const Payload& payload);

// Runs hook `hook` (a timer or subscription, View::on_hook) of the instance numbered `c` under
// `root`, like dispatch_event: emits bubble to the parents, and a failure leaves partial changes
// for the caller to roll back.
std::optional<EventError> dispatch_hook(View& root, uint32_t root_number, uint32_t c, uint32_t hook,
                                        std::string_view json);

// Every child instance under `root` (not the root itself) that has a number, with it; parents
// before their children.
std::vector<std::pair<uint32_t, View*>> descendants(View& root);

// What a parent puts in a child's slot: `content`'s nodes, each element carrying the parent's
// number `component` in `data-fz-c` (slot content runs in the parent's scope, §1.4) unless it
// is itself a child's root.
std::vector<Node> slot_content(Node content, uint32_t component);

// The slot `name` a child's render received, or null (then it renders its fallback).
const std::vector<Node>* find_slot(const RenderContext& rc, std::string_view name);

}  // namespace fitz::live

// Child instances of a live view and the routing of events to them (see fitz/live/children.h).
#include "fitz/live/children.h"

#include <stdexcept>

#include "fitz/live/instances.h"

namespace fitz::live {

namespace {

// A child sees what its parent's `ctx` sees (§1.3), through effects of its own (numbered
// `number`); what the parent emitted stays the parent's.
void inherit(View& child, const ViewEnv& parent, uint32_t number) {
  std::vector<std::pair<std::string, Payload>> emitted = std::move(child.env.emitted);
  child.env = parent;
  child.env.emitted = std::move(emitted);
  if (child.env.effects && number != 0) child.env.effects = child.env.effects->for_child(number);
}

// The identity of a child within its parent; the kind of the key is part of it, like in the
// InstanceTable (an Int key 7 and a Str key "7" are different rows).
std::string local_identity(uint32_t position, const Key& key) {
  std::string id = std::to_string(position);
  if (!key.empty()) {
    id += key.is_int() ? "#i:" : "#s:";
    id += key.as_string();
  }
  return id;
}

// The path from `view`'s children down to the instance numbered `c`: the parents and entries
// met on the way, the target last.
bool find_path(View& view, uint32_t c, std::vector<std::pair<View*, ChildTable::Entry*>>& path) {
  ChildTable* t = view.children();
  if (!t) return false;
  for (auto& [id, e] : t->entries()) {
    if (!e.view) continue;
    path.push_back({&view, &e});
    if (e.number == c || find_path(*e.view, c, path)) return true;
    path.pop_back();
  }
  return false;
}

}  // namespace

ChildTable::ChildTable(const ChildTable& o) { *this = o; }

ChildTable& ChildTable::operator=(const ChildTable& o) {
  if (this == &o) return *this;
  entries_.clear();
  for (const auto& [id, e] : o.entries_) {
    Entry copy;
    copy.view = e.view ? e.view->snapshot() : nullptr;
    if (copy.view && e.view) copy.view->env = e.view->env;
    copy.number = e.number;
    copy.bindings = e.bindings;
    copy.seen = e.seen;
    entries_.emplace(id, std::move(copy));
  }
  return *this;
}

void ChildTable::begin() {
  for (auto& [id, e] : entries_) e.seen = false;
}

Node ChildTable::render(const RenderContext& rc, const ViewEnv& env, uint32_t position, const Key& loop_key,
                        const std::function<std::unique_ptr<View>()>& make, const std::function<void(View&)>& update,
                        std::vector<ChildBinding> bindings, const Slots& slots) {
  uint32_t number = 0;
  if (rc.instances) {
    number = rc.instances->child(rc.component, position, loop_key);
    if (number == 0) throw std::runtime_error("too many component instances");
  }
  std::string id = local_identity(position, loop_key);
  auto it = entries_.find(id);
  if (it == entries_.end() || !it->second.view) {
    Entry e;
    e.view = make();
    inherit(*e.view, env, number);
    e.view->mount(rc.connected);
    e.view->env.emitted.clear();  // only an event's emits reach the parent (its render is running)
    it = entries_.insert_or_assign(id, std::move(e)).first;
  } else {
    inherit(*it->second.view, env, number);
    update(*it->second.view);
  }
  Entry& e = it->second;
  e.number = number;
  e.bindings = std::move(bindings);
  e.seen = true;
  RenderContext child_rc{number, rc.connected, rc.instances, &slots};
  Node out = e.view->render(child_rc);
  // Its number changes when its identity does (an `{#if}` showing it again), so the root must
  // be compared even when nothing in it is interpolated.
  out.is_static = false;
  return out;
}

void ChildTable::end(const RenderContext& rc) {
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (it->second.seen) {
      ++it;
      continue;
    }
    std::unique_ptr<View> gone = std::move(it->second.view);
    it = entries_.erase(it);
    if (!gone || !rc.connected) continue;
    if (ChildTable* t = gone->children()) t->unmount_all();
    gone->unmount();
  }
}

void ChildTable::unmount_all() {
  for (auto& [id, e] : entries_) {
    if (!e.view) continue;
    if (ChildTable* t = e.view->children()) t->unmount_all();
    e.view->unmount();
  }
}

namespace {

Task<Null> in_turn(Task<Null> first, Task<Null> second) {
  co_await first;
  co_await second;
  co_return null;
}

// An async handler of a child leaves its task on the child; the runtime awaits what the root
// holds, so the task moves there.
void adopt_task(View& root, View& v) {
  if (&v != &root && v.has_started()) root.adopt_started(v.take_started());
}

}  // namespace

void View::adopt_started(Task<Null> t) {
  started_.task = started_.task.valid() ? in_turn(std::move(started_.task), std::move(t)) : std::move(t);
}

namespace {

// Runs `run` on the instance numbered `c` under `root` (see dispatch_event), then bubbles what
// it emitted up to the parents' bound handlers.
std::optional<EventError> dispatch_to_instance(View& root, uint32_t root_number, uint32_t c,
                                   const std::function<std::optional<EventError>(View&)>& run) {
  root.env.emitted.clear();
  if (c == root_number) {
    std::optional<EventError> r = run(root);
    root.env.emitted.clear();  // a root has no parent to hear it
    return r;
  }
  std::vector<std::pair<View*, ChildTable::Entry*>> path;
  if (c == 0 || !find_path(root, c, path))
    return EventError{"component", "unknown component " + std::to_string(c)};
  for (auto& [parent, entry] : path) inherit(*entry->view, parent->env, entry->number);
  View* target = path.back().second->view.get();
  target->env.emitted.clear();
  if (std::optional<EventError> r = run(*target)) return r;
  adopt_task(root, *target);
  // Bubble upwards: what a level emitted runs its parent's bound handlers, whose own emits go
  // one level further up.
  for (size_t i = path.size(); i-- > 0;) {
    View* child = path[i].second->view.get();
    View* parent = path[i].first;
    std::vector<std::pair<std::string, Payload>> emitted = std::move(child->env.emitted);
    child->env.emitted.clear();
    parent->env.emitted.clear();
    for (auto& [event, args] : emitted) {
      for (const ChildBinding& b : path[i].second->bindings) {
        if (b.event != event) continue;
        Payload p = std::move(args);
        for (const auto& kv : b.args) p.push_back(kv);
        if (std::optional<EventError> r = parent->handle_event(b.handler, p)) return r;
        adopt_task(root, *parent);
        break;
      }
    }
  }
  root.env.emitted.clear();
  return std::nullopt;
}

void collect_descendants(View& view, std::vector<std::pair<uint32_t, View*>>& out) {
  ChildTable* t = view.children();
  if (!t) return;
  for (auto& [id, e] : t->entries()) {
    if (!e.view) continue;
    if (e.number != 0) out.push_back({e.number, e.view.get()});
    collect_descendants(*e.view, out);
  }
}

}  // namespace

std::optional<EventError> dispatch_event(View& root, uint32_t root_number, uint32_t c, std::string_view name,
                                         const Payload& payload) {
  return dispatch_to_instance(root, root_number, c, [&](View& v) { return v.handle_event(name, payload); });
}

std::optional<EventError> dispatch_hook(View& root, uint32_t root_number, uint32_t c, uint32_t hook,
                                        std::string_view json) {
  return dispatch_to_instance(root, root_number, c, [&](View& v) { return v.on_hook(hook, json); });
}

std::vector<std::pair<uint32_t, View*>> descendants(View& root) {
  std::vector<std::pair<uint32_t, View*>> out;
  collect_descendants(root, out);
  return out;
}

std::vector<Node> slot_content(Node content, uint32_t component) {
  std::string number = std::to_string(component);
  for (Node& n : content.children) {
    if (n.kind != NodeKind::Element || n.find_attr("data-fz-c")) continue;
    n.attr("data-fz-c", number);
    n.is_static = false;  // the number is the parent's, which a static subtree would not follow
  }
  return std::move(content.children);
}

const std::vector<Node>* find_slot(const RenderContext& rc, std::string_view name) {
  if (!rc.slots) return nullptr;
  auto it = rc.slots->find(name);
  return it == rc.slots->end() ? nullptr : &it->second;
}

}  // namespace fitz::live

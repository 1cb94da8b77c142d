// One mounted view's wire state (views.md §2.2–§2.4): the tree last sent and the revision, and
// the step that turns a new render into the next frame — a `patch` with the diff's ops, a
// `full` when the diff cannot express the change, or nothing when nothing changed.
#pragma once

#include <string>
#include <vector>

#include "fitz/live/diff.h"
#include "fitz/live/instances.h"

namespace fitz::live {

class ViewState {
 public:
  explicit ViewState(std::string view_id) : view_(std::move(view_id)) {}

  const std::string& view_id() const { return view_; }
  uint64_t rev() const { return rev_.current(); }
  const Node& last() const { return last_; }
  bool has_baseline() const { return has_last_; }

  // join and resync always answer `full` (a fresh baseline, §2.2): the inner HTML of `root`.
  std::string full(Node root);
  // After an event or a pushed update: "" when the render changed nothing (no frame, and the
  // revision stays), else a `patch` (or a `full` when needed, or when there is no baseline
  // yet). Duplicate-key warnings from the diff are appended to `*warnings` for the log.
  std::string update(Node root, std::vector<std::string>* warnings = nullptr);

 private:
  std::string view_;
  Revision rev_;
  Node last_;
  bool has_last_ = false;
};

}  // namespace fitz::live

// A view's frames: revision + baseline tree + diff, so the runner never sends a patch against a
// tree the client does not have.
#include "fitz/live/view_state.h"

#include "fitz/live/frames.h"
#include "fitz/live/html.h"

namespace fitz::live {

std::string ViewState::full(Node root) {
  std::string frame = full_frame(view_, rev_.next(), inner_html(root));
  last_ = std::move(root);
  has_last_ = true;
  return frame;
}

std::string ViewState::update(Node root, std::vector<std::string>* warnings) {
  if (!has_last_) return full(std::move(root));
  DiffResult d = diff(last_, root);
  if (warnings) warnings->insert(warnings->end(), d.warnings.begin(), d.warnings.end());
  if (d.needs_full) return full(std::move(root));
  if (d.ops.empty()) {
    last_ = std::move(root);  // equal as far as the DOM goes; keep the newest
    return {};
  }
  std::string frame = patch_frame(view_, rev_.next(), ops_to_json(d.ops));
  last_ = std::move(root);
  return frame;
}

}  // namespace fitz::live

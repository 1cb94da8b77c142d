// Hand-written live views standing in for generated ones in the end-to-end tests: a Counter
// (`Count: N` and a + button) and a Text view whose state string and link come from the
// token's props, rendered through the escaping and URL filtering of fitz/live.
#pragma once
#include <memory>
#include <string>

#include "fitz/live/view.h"

namespace fitz::live::testing {

class Counter final : public View {
 public:
  Node render(const RenderContext& ctx) const override {
    return el("div")
        .attr("data-fz-c", std::to_string(ctx.component))
        .child(el("p").attr("id", "count").child(text("Count: " + std::to_string(count_))))
        .child(el("button").attr("id", "inc").attr("data-fz-on-click", "inc").child(text("+")))
        .child(el("button").attr("id", "fail").attr("data-fz-on-click", "fail").child(text("fail")));
  }
  std::optional<EventError> handle_event(std::string_view name, const Payload&) override {
    if (name == "inc") {
      count_++;
      return std::nullopt;
    }
    if (name == "fail") {
      count_ += 100;  // rolled back by the runtime: the handler fails after changing state
      return EventError{"handler", "fail: always fails"};
    }
    return EventError{"event", "unknown event " + std::string(name)};
  }
  std::unique_ptr<View> snapshot() const override { return std::make_unique<Counter>(*this); }
  int count() const { return count_; }

 private:
  int count_ = 0;
};

// Props: {"text": Str, "url": Str} (the test server writes them; unknown fields are ignored).
class TextView final : public View {
 public:
  TextView(std::string s, std::string url) : s_(std::move(s)), url_(std::move(url)) {}
  Node render(const RenderContext& ctx) const override {
    return el("div")
        .attr("data-fz-c", std::to_string(ctx.component))
        .child(el("p").attr("id", "shown").attr("title", s_).child(text(s_)))
        .child(el("a").attr("id", "link").attr("href", url_).child(text("link")))
        .child(el("button").attr("id", "twice").attr("data-fz-on-click", "twice").child(text("twice")));
  }
  std::optional<EventError> handle_event(std::string_view name, const Payload&) override {
    if (name != "twice") return EventError{"event", "unknown event " + std::string(name)};
    s_ += s_;
    return std::nullopt;
  }
  std::unique_ptr<View> snapshot() const override { return std::make_unique<TextView>(*this); }

 private:
  std::string s_;
  std::string url_;
};

}  // namespace fitz::live::testing

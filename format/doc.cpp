// Builders for the layout document and the printer that lays it out (doc.h). The printer keeps
// a stack of commands like Prettier's: each group is measured against the rest of its line and
// printed flat when it fits.
#include "format/doc.h"

#include <algorithm>

namespace fitz::format {

namespace {

Doc make(DocKind kind) {
  auto node = std::make_shared<DocNode>();
  node->kind = kind;
  return node;
}

bool any_forces_break(const std::vector<Doc>& parts) {
  return std::any_of(parts.begin(), parts.end(), [](const Doc& d) { return d->forces_break; });
}

bool any_user_breaks(const std::vector<Doc>& parts) {
  return std::any_of(parts.begin(), parts.end(), [](const Doc& d) { return d->user_breaks; });
}

bool any_comment(const std::vector<Doc>& parts) {
  return std::any_of(parts.begin(), parts.end(), [](const Doc& d) { return d->has_comment; });
}

}  // namespace

Doc text(std::string_view s) {
  auto node = std::make_shared<DocNode>();
  node->kind = DocKind::Text;
  node->text = std::string(s);
  return node;
}

Doc nil() { return text(""); }

Doc concat(std::vector<Doc> parts) {
  std::erase(parts, nullptr);
  auto node = std::make_shared<DocNode>();
  node->kind = DocKind::Concat;
  node->forces_break = any_forces_break(parts);
  node->user_breaks = any_user_breaks(parts);
  node->has_comment = any_comment(parts);
  node->parts = std::move(parts);
  return node;
}

Doc line() { return make(DocKind::Line); }

Doc softline() {
  auto node = std::make_shared<DocNode>();
  node->kind = DocKind::Line;
  node->soft = true;
  return node;
}

Doc hardline() {
  auto node = std::make_shared<DocNode>();
  node->kind = DocKind::HardLine;
  node->forces_break = true;
  return node;
}

Doc indent(Doc d) {
  auto node = std::make_shared<DocNode>();
  node->kind = DocKind::Indent;
  node->forces_break = d->forces_break;
  node->user_breaks = d->user_breaks;
  node->has_comment = d->has_comment;
  node->parts.push_back(std::move(d));
  return node;
}

Doc group(Doc d, bool should_break) {
  auto node = std::make_shared<DocNode>();
  node->kind = DocKind::Group;
  node->should_break = should_break || d->forces_break || d->user_breaks;
  node->forces_break = should_break || d->forces_break;
  // Broken only by user-broken groups inside: measured flat like them.
  node->user_broken = node->should_break && !node->forces_break;
  node->user_breaks = node->user_broken;
  node->parts.push_back(std::move(d));
  return node;
}

Doc user_broken_group(Doc d) {
  auto node = std::make_shared<DocNode>();
  node->kind = DocKind::Group;
  node->user_broken = !d->forces_break;
  node->should_break = true;
  node->forces_break = d->forces_break;
  node->user_breaks = node->user_broken;
  node->parts.push_back(std::move(d));
  return node;
}

Doc shielded_group(Doc d, bool should_break, Doc hug) {
  auto node = std::make_shared<DocNode>();
  node->kind = DocKind::Group;
  node->shielded = true;
  node->should_break = should_break || d->has_comment;
  node->forces_break = node->should_break;
  node->parts.push_back(std::move(d));
  if (hug) node->parts.push_back(std::move(hug));
  return node;
}

Doc with_last_group_broken(const Doc& d) {
  if (!d) return nullptr;
  if (d->kind == DocKind::Group && d->shielded && d->parts.size() > 1) {
    // An argument list that can hug its own last argument: laid out hugging.
    return shielded_group(d->parts[1]);
  }
  if (d->kind == DocKind::Group) {
    auto node = std::make_shared<DocNode>(*d);
    node->should_break = true;
    node->user_broken = false;
    node->user_breaks = false;
    node->forces_break = true;
    if (node->parts.size() > 1) node->parts.resize(1);
    return node;
  }
  if (d->kind != DocKind::Concat) return nullptr;
  for (size_t i = d->parts.size(); i-- > 0;) {
    if (Doc broken = with_last_group_broken(d->parts[i])) {
      std::vector<Doc> parts = d->parts;
      parts[i] = broken;
      return concat(std::move(parts));
    }
  }
  return nullptr;
}

Doc if_break(Doc broken, Doc flat) {
  auto node = std::make_shared<DocNode>();
  node->kind = DocKind::IfBreak;
  if (!broken) broken = nil();
  if (!flat) flat = nil();
  node->forces_break = broken->forces_break;
  node->user_breaks = broken->user_breaks;
  node->has_comment = broken->has_comment;
  node->parts = {std::move(broken), std::move(flat)};
  return node;
}

Doc trailing_comment(std::string_view s) {
  auto node = std::make_shared<DocNode>();
  node->kind = DocKind::TrailingComment;
  node->text = std::string(s);
  node->forces_break = true;
  node->has_comment = true;
  return node;
}

Doc block_comment(std::string_view s) {
  auto node = std::make_shared<DocNode>();
  node->kind = DocKind::Text;
  node->text = std::string(s);
  node->spaced = true;
  return node;
}

Doc ensure_line_start() {
  auto node = std::make_shared<DocNode>();
  node->kind = DocKind::EnsureLineStart;
  node->forces_break = true;
  node->has_comment = true;
  return node;
}

// ---- printer -------------------------------------------------------------------------------

namespace {

// Break: lines are newlines. Flat: everything on one line (nested groups that must break
// excepted). Shallow: this group's own lines are flat, nested groups decide for themselves.
enum class Mode : uint8_t { Break, Flat, Shallow };

struct Cmd {
  int32_t indent;
  Mode mode;
  const DocNode* doc;
};

// Columns of `s` up to its first newline, in Unicode scalars; `newline` tells whether one exists.
int32_t first_line_width(std::string_view s, bool& newline) {
  int32_t w = 0;
  newline = false;
  for (unsigned char c : s) {
    if (c == '\n') {
      newline = true;
      break;
    }
    if ((c & 0xC0) != 0x80) ++w;
  }
  return w;
}

class Printer {
 public:
  Printer(uint32_t width, uint32_t indent_width) : width_(int32_t(width)), step_(int32_t(indent_width)) {}

  std::string run(const Doc& root) {
    cmds_.push_back({0, Mode::Break, root.get()});
    while (!cmds_.empty()) {
      Cmd cmd = cmds_.back();
      cmds_.pop_back();
      step(cmd);
    }
    trim_trailing_spaces();
    while (!out_.empty() && out_.back() == '\n') out_.pop_back();
    out_ += '\n';
    return std::move(out_);
  }

 private:
  void step(const Cmd& cmd) {
    const DocNode& d = *cmd.doc;
    switch (d.kind) {
      case DocKind::Text:
        if (d.spaced && !pending_newline_ && !out_.empty() && !line_is_blank() &&
            std::string_view(" ([{").find(out_.back()) == std::string_view::npos)
          emit_text(" ", cmd.indent);
        emit_text(d.text, cmd.indent);
        break;
      case DocKind::Concat:
        for (auto it = d.parts.rbegin(); it != d.parts.rend(); ++it) cmds_.push_back({cmd.indent, cmd.mode, it->get()});
        break;
      case DocKind::Indent:
        cmds_.push_back({cmd.mode == Mode::Break ? cmd.indent + step_ : cmd.indent, cmd.mode, d.parts[0].get()});
        break;
      case DocKind::Group: {
        Mode mode;
        if (d.should_break) {
          mode = Mode::Break;
        } else if (cmd.mode == Mode::Flat) {
          mode = Mode::Flat;
        } else if (fits({cmd.indent, Mode::Flat, d.parts[0].get()}, width_ - column_)) {
          mode = d.shielded ? Mode::Shallow : Mode::Flat;
        } else if (d.parts.size() > 1 && fits({cmd.indent, Mode::Flat, d.parts[1].get()}, width_ - column_)) {
          cmds_.push_back({cmd.indent, Mode::Shallow, d.parts[1].get()});
          break;
        } else {
          mode = Mode::Break;
        }
        cmds_.push_back({cmd.indent, mode, d.parts[0].get()});
        break;
      }
      case DocKind::IfBreak:
        cmds_.push_back({cmd.indent, cmd.mode, d.parts[cmd.mode == Mode::Break ? 0 : 1].get()});
        break;
      case DocKind::Line:
        if (cmd.mode != Mode::Break && !pending_newline_) {
          if (!d.soft) emit_text(" ", cmd.indent);
        } else {
          newline(cmd.indent);
        }
        break;
      case DocKind::HardLine:
        newline(cmd.indent);
        break;
      case DocKind::TrailingComment:
        if (!line_is_blank()) {
          trim_trailing_spaces();
          out_ += "  ";
          column_ += 2;
        }
        out_ += d.text;
        column_ += text_width(d.text);
        pending_newline_ = true;
        break;
      case DocKind::EnsureLineStart:
        if (!line_is_blank()) newline(cmd.indent);
        break;
    }
  }

  // Whether `next` and then the rest of the commands fit in `rest` columns up to the next
  // newline.
  bool fits(Cmd next, int32_t rest) const {
    std::vector<Cmd> stack = {next};
    size_t rest_index = cmds_.size();
    // Spaces count only once something follows them on the line: a newline trims them.
    int32_t spaces = 0;
    while (rest >= 0) {
      if (stack.empty()) {
        if (rest_index == 0) return true;
        stack.push_back(cmds_[--rest_index]);
        continue;
      }
      Cmd cmd = stack.back();
      stack.pop_back();
      const DocNode& d = *cmd.doc;
      bool flat = cmd.mode != Mode::Break;
      switch (d.kind) {
        case DocKind::Text: {
          if (d.text.empty()) break;
          if (d.text.find_first_not_of(' ') == std::string::npos) {
            spaces += static_cast<int32_t>(d.text.size());
            break;
          }
          bool nl = false;
          rest -= spaces + (d.spaced ? 1 : 0) + first_line_width(d.text, nl);
          spaces = 0;
          if (nl) return rest >= 0;
          break;
        }
        case DocKind::Concat:
          for (auto it = d.parts.rbegin(); it != d.parts.rend(); ++it) stack.push_back({cmd.indent, cmd.mode, it->get()});
          break;
        case DocKind::Indent:
          stack.push_back({cmd.indent, cmd.mode, d.parts[0].get()});
          break;
        case DocKind::Group:
          stack.push_back({cmd.indent, d.should_break && !d.user_broken ? Mode::Break : cmd.mode, d.parts[0].get()});
          break;
        case DocKind::IfBreak:
          stack.push_back({cmd.indent, cmd.mode, d.parts[flat ? 1 : 0].get()});
          break;
        case DocKind::Line:
          if (!flat) return true;
          if (!d.soft) spaces += 1;
          break;
        case DocKind::HardLine:
          return true;
        case DocKind::TrailingComment:
        case DocKind::EnsureLineStart:
          // The line ends here: fine for a broken layout, impossible for a flat one.
          return !flat;
      }
    }
    return false;
  }

  static int32_t text_width(std::string_view s) {
    int32_t w = 0;
    for (unsigned char c : s)
      if ((c & 0xC0) != 0x80) ++w;
    return w;
  }

  bool line_is_blank() const {
    size_t start = out_.rfind('\n');
    start = start == std::string::npos ? 0 : start + 1;
    return out_.find_first_not_of(' ', start) == std::string::npos;
  }

  void trim_trailing_spaces() {
    size_t n = out_.size();
    while (n > 0 && (out_[n - 1] == ' ' || out_[n - 1] == '\t')) --n;
    column_ -= int32_t(out_.size() - n);
    out_.resize(n);
  }

  void newline(int32_t indent) {
    trim_trailing_spaces();
    out_ += '\n';
    out_.append(size_t(indent), ' ');
    column_ = indent;
    pending_newline_ = false;
  }

  void emit_text(std::string_view s, int32_t indent) {
    if (s.empty()) return;
    if (pending_newline_) {
      if (s.find_first_not_of(' ') == std::string_view::npos) return;
      newline(indent);
    }
    out_ += s;
    size_t nl = s.rfind('\n');
    if (nl == std::string_view::npos)
      column_ += text_width(s);
    else
      column_ = text_width(s.substr(nl + 1));
  }

  int32_t width_;
  int32_t step_;
  std::vector<Cmd> cmds_;
  std::string out_;
  int32_t column_ = 0;
  bool pending_newline_ = false;
};

}  // namespace

std::string print_doc(const Doc& doc, uint32_t width, uint32_t indent_width) {
  return Printer(width, indent_width).run(doc);
}

}  // namespace fitz::format

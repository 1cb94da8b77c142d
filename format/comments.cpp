// Collects the comments of a syntax tree and decides which token each one belongs to.
#include "format/comments.h"

#include <algorithm>

#include "format/cst.h"

namespace fitz::format {

namespace {

struct Token {
  uint32_t start, end;
};

// Leaves of the tree in order; string and bytes literals count as one token each.
void walk(TSNode n, std::vector<Token>& tokens, std::vector<TSNode>& comments) {
  std::string_view type = type_of(n);
  if (type == "comment") {
    comments.push_back(n);
    return;
  }
  uint32_t count = ts_node_child_count(n);
  if (count == 0 || type == "string" || type == "bytes") {
    if (end_of(n) > start_of(n)) tokens.push_back({start_of(n), end_of(n)});
    return;
  }
  for (uint32_t i = 0; i < count; ++i) walk(ts_node_child(n, i), tokens, comments);
}

std::string normalise(std::string_view raw, bool is_line) {
  if (!is_line) return std::string(raw);
  size_t n = raw.size();
  while (n > 0 && (raw[n - 1] == ' ' || raw[n - 1] == '\t' || raw[n - 1] == '\r')) --n;
  std::string text(raw.substr(0, n));
  if (text.size() > 2 && text[2] != ' ' && text[2] != '/' && text[2] != '\t') text.insert(2, " ");
  return text;
}

}  // namespace

uint32_t newlines_between(std::string_view source, uint32_t begin, uint32_t end) {
  if (end <= begin || begin >= source.size()) return 0;
  end = std::min<uint32_t>(end, static_cast<uint32_t>(source.size()));
  return static_cast<uint32_t>(std::count(source.begin() + begin, source.begin() + end, '\n'));
}

std::vector<Comment> collect_comments(TSNode root, std::string_view source) {
  std::vector<Token> tokens;
  std::vector<TSNode> nodes;
  walk(root, tokens, nodes);
  std::vector<Comment> out;
  out.reserve(nodes.size());
  size_t next_token = 0;  // first token starting at or after the current comment
  for (size_t i = 0; i < nodes.size(); ++i) {
    Comment c;
    c.start = start_of(nodes[i]);
    c.end = end_of(nodes[i]);
    std::string_view raw = source.substr(c.start, c.end - c.start);
    c.is_line = raw.starts_with("//");
    c.text = normalise(raw, c.is_line);
    while (next_token < tokens.size() && tokens[next_token].start < c.end) ++next_token;
    const Token* prev = next_token > 0 ? &tokens[next_token - 1] : nullptr;
    const Token* next = next_token < tokens.size() ? &tokens[next_token] : nullptr;
    uint32_t next_start = next ? next->start : static_cast<uint32_t>(source.size());
    // What follows this comment: the next comment or the next token.
    uint32_t following = next_start;
    if (i + 1 < nodes.size()) following = std::min(following, start_of(nodes[i + 1]));
    uint32_t lines_after = newlines_between(source, c.end, following);
    c.newline_after = c.is_line || lines_after > 0 || following == source.size();
    c.blank_after = lines_after >= 2;

    bool next_on_same_line = next && newlines_between(source, c.end, next_start) == 0;
    bool follows_comment_on_line = !out.empty() && (!prev || out.back().end >= prev->end) &&
                                   newlines_between(source, out.back().end, c.start) == 0;
    if (!c.is_line && next_on_same_line) {
      c.placement = Placement::InlineLeading;
      c.key = next->start;
    } else if (follows_comment_on_line) {
      c.placement = out.back().placement;
      c.key = out.back().key;
    } else if (prev && newlines_between(source, prev->end, c.start) == 0) {
      c.placement = Placement::Trailing;
      c.key = prev->end;
    } else {
      c.placement = Placement::OwnLine;
      c.key = next ? next->start : static_cast<uint32_t>(source.size());
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace fitz::format

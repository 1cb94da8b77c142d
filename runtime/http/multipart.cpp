// multipart/form-data bodies (RFC 7578): the boundary from Content-Type, then parts with a
// Content-Disposition `name` (and `filename` for files) and an optional Content-Type. Text
// parts become Str (valid UTF-8 required), file parts `File{name, content_type, content}`.
// Anything malformed is a 400 with a message; parsing never reads outside the body.
#include <cstring>
#include <string>

#include "http/internal.h"

namespace fitz::http {

namespace {

// Smaller file parts are copied: taking the block over saves little for them.
constexpr size_t kTakeOverMin = 64 * 1024;

constexpr size_t kMaxParts = 1000;

bool ieq_prefix(Text s, size_t at, std::string_view p) {
  if (at + p.size() > s.size) return false;
  for (size_t i = 0; i < p.size(); ++i) {
    char c = s.data[at + i];
    if (c >= 'A' && c <= 'Z') c = char(c + 32);
    if (c != p[i]) return false;
  }
  return true;
}

size_t find(Text s, size_t from, std::string_view needle) {
  if (needle.empty() || s.size < needle.size()) return std::string::npos;
  for (size_t i = from; i + needle.size() <= s.size; ++i)
    if (s.data[i] == needle[0] && std::string_view(s.data + i, needle.size()) == needle) return i;
  return std::string::npos;
}

bool valid_utf8(Text s) {
  size_t i = 0;
  while (i < s.size) {
    unsigned char c = static_cast<unsigned char>(s.data[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size) return false;
    uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1f) : n == 3 ? (c & 0x0f) : (c & 0x07);
    for (size_t k = 1; k < n; ++k) {
      unsigned char d = static_cast<unsigned char>(s.data[i + k]);
      if ((d >> 6) != 2) return false;
      cp = (cp << 6) | (d & 0x3f);
    }
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
      return false;
    i += n;
  }
  return true;
}

// A parameter of a header value: `name="x"` or `name=x`, after a `;`. False when absent.
bool header_param(Text v, std::string_view key, std::string* out) {
  size_t i = 0;
  while (i < v.size) {
    while (i < v.size && v.data[i] != ';') {
      if (v.data[i] == '"') {  // skip quoted strings of earlier parameters
        ++i;
        while (i < v.size && v.data[i] != '"') i += v.data[i] == '\\' ? 2 : 1;
      }
      ++i;
    }
    if (i >= v.size) return false;
    ++i;
    while (i < v.size && (v.data[i] == ' ' || v.data[i] == '\t')) ++i;
    if (ieq_prefix(v, i, key) && i + key.size() < v.size && v.data[i + key.size()] == '=') {
      size_t j = i + key.size() + 1;
      out->clear();
      if (j < v.size && v.data[j] == '"') {
        ++j;
        while (j < v.size && v.data[j] != '"') {
          if (v.data[j] == '\\' && j + 1 < v.size) ++j;
          out->push_back(v.data[j++]);
        }
        return j < v.size;  // an unterminated quote is malformed
      }
      while (j < v.size && v.data[j] != ';' && v.data[j] != ' ' && v.data[j] != '\t') out->push_back(v.data[j++]);
      return true;
    }
  }
  return false;
}

}  // namespace

bool multipart_boundary(Text content_type, std::string* boundary) {
  if (!header_param(content_type, "boundary", boundary)) return false;
  return !boundary->empty() && boundary->size() <= 70;
}

bool parse_multipart(Text body, std::string_view boundary, std::vector<MultipartPart>* parts, std::string* error) {
  std::string delim = "--" + std::string(boundary);
  // The first delimiter starts the body or a line (a preamble before it is allowed).
  size_t pos;
  if (body.size >= delim.size() && std::string_view(body.data, delim.size()) == delim)
    pos = 0;
  else if ((pos = find(body, 0, "\r\n" + delim)) != std::string::npos)
    pos += 2;
  else {
    *error = "no part starts with the boundary";
    return false;
  }
  std::string next_delim = "\r\n" + delim;
  for (;;) {
    pos += delim.size();
    if (pos + 2 <= body.size && body.data[pos] == '-' && body.data[pos + 1] == '-') return true;  // close
    while (pos < body.size && (body.data[pos] == ' ' || body.data[pos] == '\t')) ++pos;
    if (pos + 2 > body.size || body.data[pos] != '\r' || body.data[pos + 1] != '\n') {
      *error = "a boundary line does not end with CRLF (or the closing boundary is missing)";
      return false;
    }
    pos += 2;
    if (parts->size() >= kMaxParts) {
      *error = "more than 1000 parts";
      return false;
    }
    MultipartPart part;
    bool has_disposition = false;
    // Headers up to an empty line.
    for (;;) {
      size_t eol = find(body, pos, "\r\n");
      if (eol == std::string::npos) {
        *error = "a part's headers do not end";
        return false;
      }
      if (eol == pos) {
        pos += 2;
        break;
      }
      Text h(body.data + pos, eol - pos);
      size_t colon = 0;
      while (colon < h.size && h.data[colon] != ':') ++colon;
      if (colon == h.size) {
        *error = "a part header has no ':'";
        return false;
      }
      Text value(h.data + colon + 1, h.size - colon - 1);
      while (value.size && (value.data[0] == ' ' || value.data[0] == '\t')) value = Text(value.data + 1, value.size - 1);
      if (ieq_prefix(h, 0, "content-disposition") && colon == 19) {
        if (!ieq_prefix(value, 0, "form-data")) {
          *error = "a part's Content-Disposition is not form-data";
          return false;
        }
        std::string name, filename;
        if (!header_param(value, "name", &name) || name.empty()) {
          *error = "a part has no name";
          return false;
        }
        part.name = Str(name.data(), name.size());
        if (header_param(value, "filename", &filename)) {
          part.is_file = true;
          part.filename = Str(filename.data(), filename.size());
        }
        has_disposition = true;
      } else if (ieq_prefix(h, 0, "content-type") && colon == 12) {
        part.content_type = value.str();
      }
      pos = eol + 2;
    }
    if (!has_disposition) {
      *error = "a part has no Content-Disposition";
      return false;
    }
    size_t end = find(body, pos, next_delim);
    if (end == std::string::npos) {
      *error = "the closing boundary is missing";
      return false;
    }
    part.data = Text(body.data + pos, end - pos);
    if (!part.is_file && !valid_utf8(part.data)) {
      *error = "part '" + std::string(part.name.data(), part.name.size()) + "' is not valid UTF-8 text";
      return false;
    }
    parts->push_back(std::move(part));
    pos = end + 2;
  }
}

// ---- Binder ----------------------------------------------------------------------------------

bool Binder::is_multipart() const { return Text(req_.content_type()) == Text("multipart/form-data"); }

bool Binder::multipart_parts(std::vector<MultipartPart>* parts) {
  if (failed_) return false;
  Text ct;
  std::string boundary;
  req_.header_text(Text("content-type"), &ct);
  if (!multipart_boundary(ct, &boundary)) {
    fail(400, Text("multipart/form-data body without a valid boundary"));
    return false;
  }
  std::string err;
  if (!parse_multipart(req_.body, boundary, parts, &err)) {
    std::string m = "malformed multipart body: " + err;
    fail(400, Text(m.data(), m.size()));
    return false;
  }
  return true;
}

Map<Str, Any> Binder::body_multipart() {
  Map<Str, Any> m;
  std::vector<MultipartPart> parts;
  if (!multipart_parts(&parts)) return m;
  // The largest file part takes the body's block over (moved to its start) instead of being
  // copied, so an upload costs its size once. It goes last, after every other part was copied
  // out of the intact body; a later part of the same name would replace it, so then it is copied.
  size_t take = parts.size();
  if (Buf* store = req_.body_store; store && store->data() == req_.body.data) {
    for (size_t i = 0; i < parts.size(); ++i)
      if (parts[i].is_file && parts[i].data.size >= kTakeOverMin && (take == parts.size() || parts[i].data.size > parts[take].data.size))
        take = i;
    for (size_t i = take + 1; i < parts.size(); ++i)
      if (parts[i].name == parts[take].name) {
        take = parts.size();
        break;
      }
  }
  auto file_of = [](const MultipartPart& p) {
    auto f = make<File>();
    f->name = p.filename;
    f->content_type = p.content_type;
    return f;
  };
  for (size_t i = 0; i < parts.size(); ++i) {
    const MultipartPart& p = parts[i];
    if (i == take) {
      m.set(p.name, Any());  // keeps the field's place in the map
      continue;
    }
    if (!p.is_file) {
      m.set(p.name, Any(p.data.str()));
      continue;
    }
    auto f = file_of(p);
    f->content = Bytes(p.data.data, p.data.size);
    m.set(p.name, to_any(f));
  }
  if (take < parts.size()) {
    const MultipartPart& p = parts[take];
    auto f = file_of(p);
    Buf& store = *req_.body_store;
    std::memmove(store.data(), p.data.data, p.data.size);
    store.truncate(p.data.size);
    f->content = Bytes::from_str(store.take());
    m.set(p.name, to_any(f));
  }
  return m;
}

}  // namespace fitz::http

// Incremental HTTP/1.1 response framing: enough to find where each response ends (status,
// Content-Length, chunked, Connection: close), which is all a load generator needs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace fitz::loadgen {

struct ResponseParser {
  enum class State { Head, Body, ChunkSize, ChunkData, ChunkCrlf, Trailer, Done, Error };
  State state = State::Head;
  int status = 0;
  bool close = false;
  uint64_t remaining = 0;

  void reset() { *this = ResponseParser{}; }
  // Consumes bytes from [data, data + n); returns how many were used. Stops at the end of one
  // response (state Done) so that pipelined bytes after it stay in the buffer.
  size_t feed(const char* data, size_t n);

 private:
  void parse_head(std::string_view head);
};

}  // namespace fitz::loadgen

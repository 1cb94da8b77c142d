// Byte buffers, the per-thread scratch buffer for building strings, and buffered stdout
// (with capture for tests and the test runner).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "fitz/runtime.h"

namespace fitz {

void Buf::grow(size_t extra) {
  size_t need = size_ + extra;
  size_t cap = cap_ ? cap_ * 2 : 48;
  while (cap < need) cap *= 2;
  // Room for the header and a terminating NUL, so take() can adopt the block as a string.
  void* p = std::realloc(block_, sizeof(detail::StrRep) + cap + 1);
  if (!p) throw std::bad_alloc();
  block_ = static_cast<detail::StrRep*>(p);
  cap_ = cap;
}

void Buf::release() {
  std::free(block_);
  block_ = nullptr;
  size_ = cap_ = 0;
}

Str Buf::take() {
  Str s;
  if (size_ <= 15) {
    s.init_copy(data(), size_);
    size_ = 0;
    return s;
  }
  char* d = data_ptr();
  d[size_] = 0;
  bool ascii = detail::all_ascii(d, size_);
  block_->rc = 1;
  block_->nchars = ascii ? size_ : detail::count_chars(d, size_);
  s.set_big(d, uint64_t(size_) | (uint64_t(Str::kHeap) << 62) | (ascii ? Str::kAsciiBit : 0));
  block_ = nullptr;
  size_ = cap_ = 0;
  return s;
}

Str Buf::str() const { return Str(data(), size_); }

namespace detail {

namespace {
struct ScratchState {
  Buf buf;
  bool busy = false;
};
thread_local ScratchState g_scratch;
}  // namespace

Scratch::Scratch() {
  if (!g_scratch.busy) {
    g_scratch.busy = true;
    g_scratch.buf.clear();
    b_ = &g_scratch.buf;
    owned_ = false;
  } else {
    b_ = new Buf();
    owned_ = true;
  }
}

Scratch::~Scratch() {
  if (owned_)
    delete b_;
  else
    g_scratch.busy = false;
}

Str Scratch::finish() {
  if (owned_) return b_->take();
  // Keep the scratch block (it is reused); large results get their own copy.
  return Str(b_->data(), b_->size());
}

}  // namespace detail

// ---- stdout ----

namespace {

struct Stdout {
  Buf buf;
  Buf* capture = nullptr;
  ~Stdout() { flush(); }
  void flush() {
    size_t off = 0;
    while (off < buf.size()) {
      ssize_t n = ::write(1, buf.data() + off, buf.size() - off);
      if (n <= 0) break;
      off += size_t(n);
    }
    buf.clear();
  }
};
thread_local Stdout g_out;

int tty_state = -1;  // -1 unknown, 0 no, 1 yes

}  // namespace

namespace detail {

Buf& out_buf() {
  if (g_out.capture) return *g_out.capture;
  return g_out.buf;  // flushed by its thread-local destructor at exit at the latest
}

void out_written() {
  if (g_out.capture) return;
  if (tty_state < 0) tty_state = ::isatty(1) ? 1 : 0;
  if (tty_state == 1 || g_out.buf.size() >= (1u << 16)) g_out.flush();
}

}  // namespace detail

void flush_stdout() { g_out.flush(); }

OutputCapture::OutputCapture() : prev_(g_out.capture) { g_out.capture = &buf_; }
OutputCapture::~OutputCapture() { g_out.capture = prev_; }
Str OutputCapture::text() const { return buf_.str(); }
Str OutputCapture::take() {
  Str s = buf_.str();
  buf_.clear();
  return s;
}

}  // namespace fitz

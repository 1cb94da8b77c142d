// The body type of the server's request parser: the bytes land in a fitz::Buf, whose block has
// the layout of a heap string. A handler that binds a large multipart file part then takes the
// block over as the file's Bytes instead of copying it (an upload costs its size once, not twice).
#pragma once

#include <boost/asio/buffer.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/optional.hpp>
#include <cstdint>

#include "fitz/http.h"  // first: it defines fitz::http::detail names that the http headers qualify

namespace fitz::http::detail {

struct BufBody {
  using value_type = Buf;

  static std::uint64_t size(const value_type& b) { return b.size(); }

  class reader {
   public:
    template <bool isRequest, class Fields>
    reader(boost::beast::http::header<isRequest, Fields>&, value_type& b) : body_(b) {}

    void init(const boost::optional<std::uint64_t>& length, boost::beast::error_code& ec) {
      ec = {};
      body_.clear();
      // The declared length was checked against the body limit with the header: one block
      // of the right size, so the body is never copied while it grows.
      if (length && *length > 0) body_.reserve_tail(size_t(*length));
    }

    template <class ConstBufferSequence>
    std::size_t put(const ConstBufferSequence& buffers, boost::beast::error_code& ec) {
      ec = {};
      size_t n = boost::asio::buffer_size(buffers);
      char* out = body_.reserve_tail(n);
      for (auto it = boost::asio::buffer_sequence_begin(buffers); it != boost::asio::buffer_sequence_end(buffers); ++it) {
        boost::asio::const_buffer b = *it;
        __builtin_memcpy(out, b.data(), b.size());
        out += b.size();
      }
      body_.commit(n);
      return n;
    }

    void finish(boost::beast::error_code& ec) { ec = {}; }

   private:
    value_type& body_;
  };
};

}  // namespace fitz::http::detail

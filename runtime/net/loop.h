// The io_context of this thread's event loop, installing an Asio-driven scheduler when the
// thread still runs the core loop (which has no I/O).
#pragma once

namespace boost::asio {
class io_context;
}

namespace fitz::net {

boost::asio::io_context& loop_context();

}  // namespace fitz::net

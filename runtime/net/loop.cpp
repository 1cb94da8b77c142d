// Outbound calls run on the HTTP worker's loop, or on the shared Asio loop of a program thread
// (fitz/asio_loop.h), which the database module uses too.
#include "fitz/asio_loop.h"
#include "net/loop.h"

namespace fitz::net {

boost::asio::io_context& loop_context() { return program_io_context(); }

}  // namespace fitz::net

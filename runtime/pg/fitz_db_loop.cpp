// Database work on program threads runs on the shared Asio loop (fitz/asio_loop.h).
#include "fitz/asio_loop.h"
#include "pg/fitz_db_internal.h"

namespace fitz::db {

void install_program_loop() { program_io_context(); }

boost::asio::io_context& loop_context() { return program_io_context(); }

}  // namespace fitz::db

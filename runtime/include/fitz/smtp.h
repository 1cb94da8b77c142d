// The `smtp` built-in of Fitz programs: `smtp.send(to, subject, body?, body_text?, body_html?,
// from?)` (or the map form) is a future of `Result<SmtpResult>` on the program's event loop,
// configured by SMTP_* variables. The implementation is libfitz_net (runtime/net/smtp_*.cpp).
#pragma once

#include "fitz/runtime.h"

namespace fitz {

// The value of the built-in `smtp`.
Any smtp_module();

}  // namespace fitz

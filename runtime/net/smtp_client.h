// The SMTP session under the `smtp` module: connect (plain, STARTTLS or implicit TLS, the
// certificate checked against SMTP_HOST), EHLO, AUTH PLAIN or LOGIN, one message, QUIT, all
// within one deadline. Boost stays in smtp_client.cpp.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "net/smtp_message.h"

namespace boost::asio {
class io_context;
}

namespace fitz::net {

struct SmtpSend {
  SmtpConfig config;
  std::string from;  // bare addresses for MAIL FROM / RCPT TO
  std::string to;
  std::string data;  // build_message's output
};

// Starts the session; `done` gets "" on success or the whole Err text, on the loop's thread.
void smtp_send(boost::asio::io_context& ioc, SmtpSend send, std::function<void(std::string)> done);

}  // namespace fitz::net

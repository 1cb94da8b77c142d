// The names shared by the manifest writers (deploy_app.h).
#include "cli/deploy_app.h"

#include <cctype>

namespace fitz::cli::deploy {

std::string dns_label(std::string_view name) {
  std::string out;
  for (char c : name) {
    unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) out += static_cast<char>(std::tolower(u));
    else if (!out.empty() && out.back() != '-') out += '-';
  }
  if (out.size() > 63) out.resize(63);
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "app" : out;
}

}  // namespace fitz::cli::deploy

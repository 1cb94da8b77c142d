// The startup/authentication state machine; see startup.h. A server that claims success before
// a started SCRAM exchange has proven itself (SASLFinal verified) is treated as an attacker.
#include "pg/startup.h"

namespace fitz::pg {
namespace {

Error auth_error(std::string_view code, std::string message) {
  return Error::make(ErrorKind::Auth, code, std::move(message));
}

}  // namespace

std::string_view auth_method_name(AuthMethod method) {
  switch (method) {
    case AuthMethod::None: return "none";
    case AuthMethod::Trust: return "trust";
    case AuthMethod::Cleartext: return "cleartext";
    case AuthMethod::Md5: return "md5";
    case AuthMethod::ScramSha256: return "SCRAM-SHA-256";
  }
  return "none";
}

StartupConfig StartupConfig::from(const ConnInfo& info) {
  StartupConfig c;
  c.user = info.user;
  c.password = info.password;
  c.database = info.dbname;
  c.application_name = info.application_name;
  c.options = info.options;
  return c;
}

StartupFlow::StartupFlow(StartupConfig config) : config_(std::move(config)) {}

Status StartupFlow::fail(Error error) {
  state_ = State::Failed;
  error_ = error;
  return error;
}

Status StartupFlow::start(std::string& out) {
  if (state_ != State::Initial) return fail(Error::protocol("startup already started"));
  std::vector<StartupParam> params;
  params.push_back({"user", config_.user});
  if (!config_.database.empty()) params.push_back({"database", config_.database});
  if (!config_.application_name.empty()) params.push_back({"application_name", config_.application_name});
  params.push_back({"client_encoding", "UTF8"});
  if (!config_.options.empty()) params.push_back({"options", config_.options});
  for (const auto& [name, value] : config_.extra_params) params.push_back({name, value});
  if (auto s = encode_startup(out, params); !s) return fail(s.error());
  state_ = State::AwaitingAuthRequest;
  return {};
}

Status StartupFlow::on_auth_request(const BackendMessage& message, std::string& out) {
  auto need_password = [&](std::string_view method) -> Status {
    if (!config_.password)
      return fail(auth_error(sqlstate::kInvalidPassword,
                             "the server requested " + std::string(method) +
                                 " password authentication, but no password was given"));
    return {};
  };
  if (std::holds_alternative<AuthenticationOk>(message)) {
    session_.auth_method = AuthMethod::Trust;
    state_ = State::AwaitingReady;
    return {};
  }
  if (std::holds_alternative<AuthenticationCleartextPassword>(message)) {
    if (auto s = need_password("cleartext"); !s) return s;
    if (auto s = encode_password(out, *config_.password); !s) return fail(s.error());
    session_.auth_method = AuthMethod::Cleartext;
    state_ = State::AwaitingAuthResult;
    return {};
  }
  if (const auto* md5 = std::get_if<AuthenticationMd5Password>(&message)) {
    if (auto s = need_password("MD5"); !s) return s;
    if (auto s = encode_password(out, md5_password(config_.user, *config_.password, md5->salt)); !s)
      return fail(s.error());
    session_.auth_method = AuthMethod::Md5;
    state_ = State::AwaitingAuthResult;
    return {};
  }
  if (const auto* sasl = std::get_if<AuthenticationSasl>(&message)) {
    bool offered = false;
    for (auto m : sasl->mechanisms) offered = offered || m == kScramSha256;
    if (!offered) {
      std::string list;
      for (auto m : sasl->mechanisms) list += (list.empty() ? "" : ", ") + std::string(m);
      return fail(Error::make(ErrorKind::Unsupported, sqlstate::kFeatureNotSupported,
                              "none of the server's SASL mechanisms (" + list + ") is supported"));
    }
    if (auto s = need_password("SCRAM-SHA-256"); !s) return s;
    // The SCRAM user name is left empty: the server takes the startup user, as libpq does.
    if (config_.scram_nonce.empty()) {
      auto client = ScramClient::with_random_nonce("", *config_.password);
      if (!client) return fail(std::move(client).error());
      scram_.emplace(std::move(*client));
    } else {
      scram_.emplace("", *config_.password, config_.scram_nonce);
    }
    if (auto s = encode_sasl_initial_response(out, kScramSha256, scram_->client_first()); !s)
      return fail(s.error());
    session_.auth_method = AuthMethod::ScramSha256;
    state_ = State::AwaitingSaslContinue;
    return {};
  }
  if (const auto* other = std::get_if<AuthenticationUnsupported>(&message)) {
    std::string_view name = other->code == 2 ? "Kerberos V5" : other->code == 6 ? "SCM credentials"
                          : other->code == 9 ? "SSPI" : "GSSAPI";
    return fail(Error::make(ErrorKind::Unsupported, sqlstate::kFeatureNotSupported,
                            "the server requested " + std::string(name) + " authentication, which is not supported"));
  }
  if (std::holds_alternative<NegotiateProtocolVersion>(message)) return {};  // 3.0 is what we asked for
  return fail(unexpected_message(message, "while waiting for an authentication request"));
}

Status StartupFlow::on_message(const BackendMessage& message, std::string& out) {
  if (done()) return error_ ? Status(*error_) : fail(Error::protocol("message after startup completed"));
  if (const auto* err = std::get_if<ErrorResponse>(&message)) return fail(Error::from_server(err->fields));
  if (const auto* notice = std::get_if<NoticeResponse>(&message)) {
    session_.notices.push_back(notice->fields);
    return {};
  }
  if (const auto* param = std::get_if<ParameterStatus>(&message)) {
    session_.parameters[std::string(param->name)] = std::string(param->value);
    return {};
  }

  switch (state_) {
    case State::AwaitingAuthRequest:
      return on_auth_request(message, out);

    case State::AwaitingSaslContinue: {
      const auto* cont = std::get_if<AuthenticationSaslContinue>(&message);
      if (!cont) return fail(unexpected_message(message, "during SCRAM (expected SASLContinue)"));
      auto client_final = scram_->handle_server_first(cont->data);
      if (!client_final) return fail(std::move(client_final).error());
      if (auto s = encode_sasl_response(out, *client_final); !s) return fail(s.error());
      state_ = State::AwaitingSaslFinal;
      return {};
    }

    case State::AwaitingSaslFinal: {
      const auto* fin = std::get_if<AuthenticationSaslFinal>(&message);
      if (!fin) return fail(unexpected_message(message, "during SCRAM (expected SASLFinal)"));
      if (auto s = scram_->handle_server_final(fin->data); !s) return fail(s.error());
      scram_.reset();
      state_ = State::AwaitingAuthResult;
      return {};
    }

    case State::AwaitingAuthResult:
      if (!std::holds_alternative<AuthenticationOk>(message))
        return fail(unexpected_message(message, "after sending credentials (expected AuthenticationOk)"));
      state_ = State::AwaitingReady;
      return {};

    case State::AwaitingReady:
      if (const auto* key = std::get_if<BackendKeyData>(&message)) {
        session_.process_id = key->process_id;
        session_.secret_key = std::string(key->secret_key);
        return {};
      }
      if (const auto* ready = std::get_if<ReadyForQuery>(&message)) {
        session_.status = ready->status;
        state_ = State::Ready;
        return {};
      }
      return fail(unexpected_message(message, "while waiting for ReadyForQuery"));

    case State::Initial:
      return fail(Error::protocol("message before the startup message was sent"));
    case State::Ready:
    case State::Failed:
      break;
  }
  return fail(Error::protocol("message after startup completed"));
}

}  // namespace fitz::pg

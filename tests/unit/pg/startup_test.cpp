// The startup/authentication state machine driven by scripted server messages: trust, cleartext,
// MD5, SCRAM (with a server computed here from the same primitives), and every failure path.
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "pg/startup.h"
#include "pg_test_util.h"

namespace fitz::pg {
namespace {
using namespace fitz::pg::test_support;

Status feed(StartupFlow& flow, char tag, const std::string& body, std::string& out) {
  auto m = decode_message(tag, body);
  EXPECT_TRUE(m.ok());
  if (!m.ok()) return m.error();
  return flow.on_message(*m, out);
}

void finish_ready(StartupFlow& flow) {
  std::string out;
  EXPECT_TRUE(feed(flow, 'S', cstr("server_version") + cstr("15.8"), out).ok());
  EXPECT_TRUE(feed(flow, 'S', cstr("TimeZone") + cstr("UTC"), out).ok());
  EXPECT_TRUE(feed(flow, 'K', be32(4242) + be32(99), out).ok());
  EXPECT_TRUE(feed(flow, 'Z', "I", out).ok());
  EXPECT_TRUE(out.empty());
  EXPECT_TRUE(flow.ready());
  EXPECT_EQ(flow.session().parameters.at("server_version"), "15.8");
  EXPECT_EQ(flow.session().parameters.at("TimeZone"), "UTC");
  EXPECT_EQ(flow.session().process_id, 4242);
  EXPECT_EQ(flow.session().secret_key, be32(99));
}

StartupConfig config(std::optional<std::string> password = std::nullopt) {
  StartupConfig c;
  c.user = "app";
  c.database = "appdb";
  c.password = std::move(password);
  return c;
}

TEST(PgStartup, StartupMessageCarriesUserDatabaseAndSessionSettings) {
  StartupFlow flow(config());
  std::string out;
  ASSERT_TRUE(flow.start(out).ok());
  std::string body = be32(196608) + cstr("user") + cstr("app") + cstr("database") + cstr("appdb") +
                     cstr("application_name") + cstr("fitz") + cstr("client_encoding") + cstr("UTF8") + bytes({0});
  EXPECT_EQ(out, be32(4 + body.size()) + body);
  EXPECT_EQ(flow.state(), StartupFlow::State::AwaitingAuthRequest);
}

TEST(PgStartup, Trust) {
  StartupFlow flow(config());
  std::string out;
  ASSERT_TRUE(flow.start(out).ok());
  out.clear();
  ASSERT_TRUE(feed(flow, 'R', be32(0), out).ok());
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(flow.state(), StartupFlow::State::AwaitingReady);
  finish_ready(flow);
  EXPECT_EQ(flow.session().auth_method, AuthMethod::Trust);
}

TEST(PgStartup, Cleartext) {
  StartupFlow flow(config("hunter2"));
  std::string out;
  ASSERT_TRUE(flow.start(out).ok());
  out.clear();
  ASSERT_TRUE(feed(flow, 'R', be32(3), out).ok());
  EXPECT_EQ(out, bytes({'p', 0, 0, 0, 12}) + cstr("hunter2"));
  out.clear();
  ASSERT_TRUE(feed(flow, 'R', be32(0), out).ok());
  finish_ready(flow);
  EXPECT_EQ(flow.session().auth_method, AuthMethod::Cleartext);
}

TEST(PgStartup, Md5) {
  StartupFlow flow(config("pencil"));
  std::string out;
  ASSERT_TRUE(flow.start(out).ok());
  out.clear();
  ASSERT_TRUE(feed(flow, 'R', be32(5) + bytes({1, 2, 3, 4}), out).ok());
  std::string expected_password = md5_password("app", "pencil", {1, 2, 3, 4});
  EXPECT_EQ(out, bytes({'p'}) + be32(4 + expected_password.size() + 1) + cstr(expected_password));
  out.clear();
  ASSERT_TRUE(feed(flow, 'R', be32(0), out).ok());
  finish_ready(flow);
  EXPECT_EQ(flow.session().auth_method, AuthMethod::Md5);
}

// ---- SCRAM --------------------------------------------------------------------------------

std::string hmac(std::string_view key, std::string_view data) {
  unsigned char out[32];
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
       data.size(), out, &len);
  return std::string(reinterpret_cast<char*>(out), len);
}

// The server's signature for an exchange, computed independently of ScramClient.
std::string server_signature(std::string_view password, std::string_view salt, int iterations,
                             std::string_view auth_message) {
  unsigned char salted[32];
  PKCS5_PBKDF2_HMAC(password.data(), static_cast<int>(password.size()),
                    reinterpret_cast<const unsigned char*>(salt.data()), static_cast<int>(salt.size()), iterations,
                    EVP_sha256(), 32, salted);
  std::string server_key = hmac(std::string_view(reinterpret_cast<char*>(salted), 32), "Server Key");
  return base64_encode(hmac(server_key, auth_message));
}

struct ScramScript {
  std::string client_first_bare = "n=,r=clientnonce";
  std::string server_first = "r=clientnonceSERVER,s=" + base64_encode("saltsalt") + ",i=4096";
  std::string client_final_without_proof = "c=biws,r=clientnonceSERVER";
  std::string auth_message() const {
    return client_first_bare + "," + server_first + "," + client_final_without_proof;
  }
};

StartupFlow start_scram(std::string& out) {
  StartupConfig c = config("s3cret");
  c.scram_nonce = "clientnonce";
  StartupFlow flow(std::move(c));
  EXPECT_TRUE(flow.start(out).ok());
  out.clear();
  EXPECT_TRUE(feed(flow, 'R', be32(10) + cstr("SCRAM-SHA-256-PLUS") + cstr("SCRAM-SHA-256") + bytes({0}), out).ok());
  std::string initial = cstr("SCRAM-SHA-256") + be32(19) + "n,,n=,r=clientnonce";
  EXPECT_EQ(out, bytes({'p'}) + be32(4 + initial.size()) + initial);
  EXPECT_EQ(flow.state(), StartupFlow::State::AwaitingSaslContinue);
  out.clear();
  return flow;
}

TEST(PgStartup, ScramFullExchange) {
  std::string out;
  StartupFlow flow = start_scram(out);
  ScramScript script;
  ASSERT_TRUE(feed(flow, 'R', be32(11) + script.server_first, out).ok());
  auto frames = split_frontend(out);
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_EQ(frames[0].first, 'p');
  EXPECT_EQ(frames[0].second.substr(0, script.client_final_without_proof.size() + 3),
            script.client_final_without_proof + ",p=");
  // The proof matches what an independent client computes for the same exchange.
  ScramClient reference("", "s3cret", "clientnonce");
  (void)reference.client_first();
  EXPECT_EQ(frames[0].second, *reference.handle_server_first(script.server_first));
  out.clear();

  std::string verifier = "v=" + server_signature("s3cret", "saltsalt", 4096, script.auth_message());
  ASSERT_TRUE(feed(flow, 'R', be32(12) + verifier, out).ok());
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(flow.state(), StartupFlow::State::AwaitingAuthResult);
  ASSERT_TRUE(feed(flow, 'R', be32(0), out).ok());
  finish_ready(flow);
  EXPECT_EQ(flow.session().auth_method, AuthMethod::ScramSha256);
}

TEST(PgStartup, ScramWrongServerSignatureFails) {
  std::string out;
  StartupFlow flow = start_scram(out);
  ScramScript script;
  ASSERT_TRUE(feed(flow, 'R', be32(11) + script.server_first, out).ok());
  out.clear();
  std::string verifier = "v=" + server_signature("not-the-password", "saltsalt", 4096, script.auth_message());
  auto s = feed(flow, 'R', be32(12) + verifier, out);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, ErrorKind::Auth);
  EXPECT_EQ(flow.state(), StartupFlow::State::Failed);
  ASSERT_NE(flow.error(), nullptr);
}

TEST(PgStartup, ServerSkippingScramIsRejected) {
  std::string out;
  StartupFlow flow = start_scram(out);
  auto s = feed(flow, 'R', be32(0), out);  // AuthenticationOk without SASLContinue/SASLFinal
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, ErrorKind::Protocol);

  std::string out2;
  StartupFlow flow2 = start_scram(out2);
  ASSERT_TRUE(feed(flow2, 'R', be32(11) + ScramScript().server_first, out2).ok());
  EXPECT_FALSE(feed(flow2, 'R', be32(0), out2).ok());  // AuthenticationOk before SASLFinal
}

// ---- Failures -----------------------------------------------------------------------------

TEST(PgStartup, PasswordRequestedButNoneGiven) {
  for (const std::string& request : {be32(3), be32(5) + bytes({1, 2, 3, 4}),
                                     be32(10) + cstr("SCRAM-SHA-256") + bytes({0})}) {
    StartupFlow flow(config());
    std::string out;
    ASSERT_TRUE(flow.start(out).ok());
    out.clear();
    auto s = feed(flow, 'R', request, out);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().sqlstate, "28P01");
    EXPECT_TRUE(out.empty());
  }
}

TEST(PgStartup, ServerErrorCarriesSqlstate) {
  StartupFlow flow(config("wrong"));
  std::string out;
  ASSERT_TRUE(flow.start(out).ok());
  ASSERT_TRUE(feed(flow, 'R', be32(3), out).ok());
  std::string error = "SFATAL" + std::string(1, '\0') + "VFATAL" + std::string(1, '\0') + "C28P01" +
                      std::string(1, '\0') + "Mpassword authentication failed for user \"app\"" + std::string(2, '\0');
  auto s = feed(flow, 'E', error, out);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, ErrorKind::Server);
  EXPECT_EQ(s.error().sqlstate, "28P01");
  EXPECT_EQ(s.error().summary(), "FATAL: password authentication failed for user \"app\"");
  EXPECT_TRUE(s.error().is_fatal());
  EXPECT_EQ(flow.state(), StartupFlow::State::Failed);
  EXPECT_EQ(flow.error()->sqlstate, "28P01");
}

TEST(PgStartup, UnsupportedMethods) {
  for (const std::string& request : {be32(7), be32(9), be32(2), be32(10) + cstr("SCRAM-SHA-256-PLUS") + bytes({0})}) {
    StartupFlow flow(config("pw"));
    std::string out;
    ASSERT_TRUE(flow.start(out).ok());
    auto s = feed(flow, 'R', request, out);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().kind, ErrorKind::Unsupported);
    EXPECT_EQ(s.error().sqlstate, "0A000");
  }
}

TEST(PgStartup, UnexpectedMessagesAreProtocolErrors) {
  StartupFlow flow(config());
  std::string out;
  ASSERT_TRUE(flow.start(out).ok());
  auto s = feed(flow, 'D', be16(0), out);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, ErrorKind::Protocol);
  EXPECT_NE(s.error().message.find("DataRow"), std::string::npos);

  StartupFlow early(config());
  EXPECT_FALSE(feed(early, 'R', be32(0), out).ok());  // before start()

  StartupFlow ready_too_soon(config());
  ASSERT_TRUE(ready_too_soon.start(out).ok());
  EXPECT_FALSE(feed(ready_too_soon, 'Z', "I", out).ok());  // ReadyForQuery before authentication
}

TEST(PgStartup, NoticesDuringStartupAreKept) {
  StartupFlow flow(config());
  std::string out;
  ASSERT_TRUE(flow.start(out).ok());
  ASSERT_TRUE(feed(flow, 'R', be32(0), out).ok());
  ASSERT_TRUE(feed(flow, 'N', "SWARNING" + std::string(1, '\0') + "Mhi" + std::string(2, '\0'), out).ok());
  finish_ready(flow);
  ASSERT_EQ(flow.session().notices.size(), 1u);
  EXPECT_EQ(flow.session().notices[0].message, "hi");
}

}  // namespace
}  // namespace fitz::pg

// SCRAM-SHA-256 against the RFC 7677 test vector, its failure modes, MD5 hashing and base64.
#include <gtest/gtest.h>

#include "pg/scram.h"
#include "pg_test_util.h"

namespace fitz::pg {
namespace {

constexpr std::string_view kClientNonce = "rOprNGfwEbeRWgbNEkqO";
constexpr std::string_view kServerFirst =
    "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
constexpr std::string_view kClientFinal =
    "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=";
// RFC 7677 section 3. (The variant ending "dOoeedsAu9ad3fY=" that circulates is not the RFC's
// value; it fails verification, see NearMissSignatureFails.)
constexpr std::string_view kServerFinal = "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=";

ScramClient rfc_client() { return ScramClient("user", "pencil", std::string(kClientNonce)); }

TEST(PgScram, Rfc7677Vector) {
  ScramClient client = rfc_client();
  EXPECT_EQ(client.state(), ScramClient::State::Initial);
  EXPECT_EQ(client.client_first(), "n,,n=user,r=rOprNGfwEbeRWgbNEkqO");
  EXPECT_EQ(client.state(), ScramClient::State::AwaitingServerFirst);
  auto final_message = client.handle_server_first(kServerFirst);
  ASSERT_TRUE(final_message.ok()) << final_message.error().message;
  EXPECT_EQ(*final_message, kClientFinal);
  EXPECT_EQ(client.state(), ScramClient::State::AwaitingServerFinal);
  auto verified = client.handle_server_final(kServerFinal);
  EXPECT_TRUE(verified.ok()) << verified.error().message;
  EXPECT_EQ(client.state(), ScramClient::State::Done);
}

TEST(PgScram, WrongServerSignatureFails) {
  ScramClient client = rfc_client();
  (void)client.client_first();
  ASSERT_TRUE(client.handle_server_first(kServerFirst).ok());
  auto s = client.handle_server_final("v=7rriTRBi23WpRR/wtup+mMhUZUn/dOoeedsAu9ad3fY=");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, ErrorKind::Auth);
  EXPECT_EQ(client.state(), ScramClient::State::Failed);
}

TEST(PgScram, NearMissSignatureFails) {
  ScramClient client = rfc_client();
  (void)client.client_first();
  ASSERT_TRUE(client.handle_server_first(kServerFirst).ok());
  EXPECT_FALSE(client.handle_server_final("v=6rriTRBi23WpRR/wtup+mMhUZUn/dOoeedsAu9ad3fY=").ok());
}

TEST(PgScram, ServerErrorInFinalMessage) {
  ScramClient client = rfc_client();
  (void)client.client_first();
  ASSERT_TRUE(client.handle_server_first(kServerFirst).ok());
  auto s = client.handle_server_final("e=invalid-proof");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("invalid-proof"), std::string::npos);
}

TEST(PgScram, BadServerFirstMessages) {
  std::string_view bad[] = {
      "r=someoneelsesnonce,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096",   // nonce not ours
      "r=rOprNGfwEbeRWgbNEkqO,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096",  // nonce not extended
      "r=rOprNGfwEbeRWgbNEkqOxyz,s=!!!,i=4096",                  // bad base64 salt
      "r=rOprNGfwEbeRWgbNEkqOxyz,s=,i=4096",                     // empty salt
      "r=rOprNGfwEbeRWgbNEkqOxyz,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=0",  // zero iterations
      "r=rOprNGfwEbeRWgbNEkqOxyz,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=-1",
      "r=rOprNGfwEbeRWgbNEkqOxyz,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4x",
      "r=rOprNGfwEbeRWgbNEkqOxyz,s=W22ZaJ0SNY7soEsUEjb6gQ==",      // no iteration count
      "m=ext,r=rOprNGfwEbeRWgbNEkqOxyz,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=1",  // mandatory extension
      "s=W22ZaJ0SNY7soEsUEjb6gQ==,r=rOprNGfwEbeRWgbNEkqOxyz,i=1",  // wrong order
      "garbage",
      "",
  };
  for (auto message : bad) {
    ScramClient client = rfc_client();
    (void)client.client_first();
    auto r = client.handle_server_first(message);
    EXPECT_FALSE(r.ok()) << message;
    EXPECT_EQ(client.state(), ScramClient::State::Failed) << message;
  }
}

TEST(PgScram, OutOfOrderCalls) {
  ScramClient client = rfc_client();
  EXPECT_FALSE(client.handle_server_first(kServerFirst).ok());  // before client_first
  ScramClient other = rfc_client();
  (void)other.client_first();
  EXPECT_FALSE(other.handle_server_final(kServerFinal).ok());  // before server-first
}

TEST(PgScram, UserNameIsEscaped) {
  ScramClient client("a=b,c", "pw", "nonce");
  EXPECT_EQ(client.client_first(), "n,,n=a=3Db=2Cc,r=nonce");
}

TEST(PgScram, RandomNonces) {
  auto a = random_nonce();
  auto b = random_nonce();
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(a->size(), 24u);
  EXPECT_NE(*a, *b);
  EXPECT_EQ(a->find(','), std::string::npos);
  auto client = ScramClient::with_random_nonce("", "pw");
  ASSERT_TRUE(client.ok());
  EXPECT_EQ(client->client_first().substr(0, 8), "n,,n=,r=");
}

TEST(PgMd5, StoredHashMatchesPostgres) {
  // What `CREATE ROLE postgres PASSWORD 'postgres'` stores with password_encryption = md5.
  EXPECT_EQ(md5_stored_password("postgres", "postgres"), "md53175bce1d3201d16594cebf9d7eb3f9d");
}

TEST(PgMd5, SaltedResponse) {
  EXPECT_EQ(md5_password("postgres", "postgres", {1, 2, 3, 4}), "md568be9ed08db75f318087ab337aaea044");
  EXPECT_EQ(md5_password("user", "pencil", {0xde, 0xad, 0xbe, 0xef}), "md50f5b636d891e9860623ac8ca91fc9dfc");
}

TEST(PgBase64, RoundTripsAndRejectsGarbage) {
  EXPECT_EQ(base64_encode(""), "");
  EXPECT_EQ(base64_encode("f"), "Zg==");
  EXPECT_EQ(base64_encode("fo"), "Zm8=");
  EXPECT_EQ(base64_encode("foo"), "Zm9v");
  EXPECT_EQ(base64_encode("n,,"), "biws");
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  auto back = base64_decode(base64_encode(all));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, all);
  for (std::string_view bad : {"Zg=", "Z===", "Zg=a", "Zm9v!", "=Zm9", "Zg==Zg=="})
    EXPECT_FALSE(base64_decode(bad).ok()) << bad;
}

}  // namespace
}  // namespace fitz::pg

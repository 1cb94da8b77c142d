// Argon2id password hashes: PHC format with the spec's parameters, salts differ, verify accepts
// only the right password, and malformed or hostile PHC strings are a plain false.
#include <gtest/gtest.h>

#include <string>

#include "fitz/auth.h"

namespace fitz::auth {
namespace {

std::string s(const Str& x) { return std::string(x.data(), x.size()); }

TEST(Password, HashIsArgon2idPhc) {
  Str h = hash_password("hunter2"_s);
  std::string t = s(h);
  EXPECT_EQ(t.rfind("$argon2id$v=19$m=19456,t=2,p=1$", 0), 0u) << t;
  EXPECT_TRUE(verify_password("hunter2"_s, h));
  EXPECT_FALSE(verify_password("hunter3"_s, h));
  EXPECT_FALSE(verify_password(""_s, h));
  // A fresh salt each time.
  EXPECT_NE(t, s(hash_password("hunter2"_s)));
}

TEST(Password, EmptyAndBinaryPasswords) {
  Str e = hash_password(""_s);
  EXPECT_TRUE(verify_password(""_s, e));
  EXPECT_FALSE(verify_password(" "_s, e));
  Str bin("a\0b", 3);
  Str h = hash_password(bin);
  EXPECT_TRUE(verify_password(bin, h));
  EXPECT_FALSE(verify_password("a"_s, h));
}

TEST(Password, MalformedOrHostilePhcIsFalse) {
  std::string good = s(hash_password("pw"_s));
  for (std::string bad : {std::string(), std::string("plain"), std::string("$argon2i$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA"),
                          good.substr(0, good.size() - 5), good + "x",
                          std::string("$argon2id$v=19$m=4294967295,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNo"),
                          std::string("$argon2id$v=19$m=19456,t=100000,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNo"),
                          std::string("$argon2id$v=19$m=19456,t=2,p=255$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNo"),
                          std::string("$argon2id$v=19$m=,t=2,p=1$$"), std::string(4096, '$')}) {
    EXPECT_FALSE(verify_password("pw"_s, Str(bad.data(), bad.size()))) << bad;
  }
}

}  // namespace
}  // namespace fitz::auth

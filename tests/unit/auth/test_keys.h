// RSA-2048 and EC P-256 key pairs made with OpenSSL when a test asks for them, as PEM text.
#pragma once

#include <openssl/evp.h>
#include <openssl/pem.h>

#include <string>

namespace fitz::auth::test_support {

struct KeyPair {
  std::string private_pem;
  std::string public_pem;
};

inline std::string bio_text(BIO* b) {
  char* p = nullptr;
  long n = BIO_get_mem_data(b, &p);
  std::string s(p, size_t(n));
  BIO_free(b);
  return s;
}

inline KeyPair pem_pair(EVP_PKEY* k) {
  KeyPair out;
  BIO* priv = BIO_new(BIO_s_mem());
  PEM_write_bio_PrivateKey(priv, k, nullptr, nullptr, 0, nullptr, nullptr);
  out.private_pem = bio_text(priv);
  BIO* pub = BIO_new(BIO_s_mem());
  PEM_write_bio_PUBKEY(pub, k);
  out.public_pem = bio_text(pub);
  EVP_PKEY_free(k);
  return out;
}

inline const KeyPair& rsa_keys() {
  static const KeyPair k = pem_pair(EVP_RSA_gen(2048));
  return k;
}
inline const KeyPair& ec_keys() {
  static const KeyPair k = pem_pair(EVP_EC_gen("P-256"));
  return k;
}

}  // namespace fitz::auth::test_support

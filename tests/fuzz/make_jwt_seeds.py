#!/usr/bin/env python3
"""Writes the seed corpus of the JWT fuzz target (corpus/jwt/): tokens signed with the fixed keys
of jwt_keys.h (HS256/384/512 through hmac, RS256/ES256 through the openssl command), `none`,
algorithm confusion, wrong keys, bad claims and truncated tokens, plus seeds of the target's
other modes. Each file is the mode byte followed by the input (see jwt_fuzz.cpp).
Usage: tests/fuzz/make_jwt_seeds.py   (rewrites tests/fuzz/corpus/jwt/)"""
import base64, hashlib, hmac, json, pathlib, re, subprocess, tempfile

here = pathlib.Path(__file__).resolve().parent
keys = dict(re.findall(r'char (k\w+)\[\] = R?"(?:PEM\()?(.*?)(?:\)PEM)?";', (here / "jwt_keys.h").read_text(), re.S))
out = here / "corpus" / "jwt"


def b64(b):
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


def der_to_rs(der):
    # SEQUENCE { INTEGER r, INTEGER s } -> r||s, 32 bytes each
    i = 2 if der[1] < 0x80 else 3
    parts = []
    for _ in range(2):
        n = der[i + 1]
        parts.append(int.from_bytes(der[i + 2:i + 2 + n], "big").to_bytes(32, "big"))
        i += 2 + n
    return b"".join(parts)


def sign(alg, data, secret=None, pem=None):
    if alg.startswith("HS"):
        md = {"HS256": hashlib.sha256, "HS384": hashlib.sha384, "HS512": hashlib.sha512}[alg]
        return hmac.new((secret or keys["kSecret"]).encode(), data.encode(), md).digest()
    with tempfile.NamedTemporaryFile("w", suffix=".pem") as k:
        k.write(pem or keys["kRsaPrivate" if alg == "RS256" else "kEcPrivate"])
        k.flush()
        sig = subprocess.run(["openssl", "dgst", "-sha256", "-sign", k.name], input=data.encode(),
                             capture_output=True, check=True).stdout
    return sig if alg == "RS256" else der_to_rs(sig)


def token(alg, claims, header=None, **kw):
    h = header if header is not None else json.dumps({"alg": alg, "typ": "JWT"}, separators=(",", ":"))
    c = claims if isinstance(claims, str) else json.dumps(claims, separators=(",", ":"))
    signing = b64(h.encode()) + "." + b64(c.encode())
    return signing + "." + b64(sign(alg, signing, **kw))


claims = {"sub": "42", "role": "admin", "exp": 1900000000, "iat": 1600000000, "jti": "id-1",
          "roles": ["a", "b"], "meta": {"n": 1.5, "ok": True, "none": None}}
seeds = {}
for alg in ["HS256", "HS384", "HS512", "RS256", "ES256"]:
    seeds[f"valid_{alg}"] = b"\x00" + token(alg, claims).encode()
    t = token(alg, {"sub": "x"})
    for cut in (len(t) // 3, len(t) // 2, len(t) - 5):
        seeds[f"truncated_{alg}_{cut}"] = b"\x00" + t[:cut].encode()
none_header = b64(b'{"alg":"none","typ":"JWT"}') + "." + b64(b'{"sub":"root"}')
seeds["alg_none"] = b"\x00" + (none_header + ".").encode()
seeds["alg_none_upper"] = b"\x00" + (b64(b'{"alg":"NONE"}') + "." + b64(b'{"sub":"root"}') + ".").encode()
seeds["alg_confusion_rsa_pem_as_hmac_secret"] = b"\x00" + token("HS256", {"sub": "x"}, secret=keys["kRsaPublic"]).encode()
seeds["wrong_secret"] = b"\x00" + token("HS256", claims, secret="another secret").encode()
seeds["expired"] = b"\x00" + token("HS256", {"exp": 1600000000}).encode()
seeds["not_yet_valid"] = b"\x00" + token("ES256", {"nbf": 1800000000}).encode()
seeds["exp_is_string"] = b"\x00" + token("HS256", {"exp": "tomorrow"}).encode()
seeds["revoked_jti"] = b"\x00" + token("HS256", {"jti": "revoked-id", "exp": 1800000000}).encode()
seeds["no_exp_required"] = b"\x04" + token("HS256", {"sub": "x"}).encode()
seeds["crit_header"] = b"\x00" + token("HS256", {}, header='{"alg":"HS256","crit":["exp"]}').encode()
seeds["duplicate_alg"] = b"\x00" + token("HS256", {}, header='{"alg":"HS256","alg":"none"}').encode()
seeds["four_parts"] = b"\x00" + (token("HS256", {}) + ".e30").encode()
seeds["padded_base64"] = b"\x00" + (b64(b'{"alg":"HS256"}') + "=.e30.AAAA").encode()
seeds["es256_der_signature"] = b"\x00" + (lambda s: s[:s.rfind(".") + 1] + b64(b"\x30\x06\x02\x01\x01\x02\x01\x01"))(token("ES256", {})).encode()
for i, alg in enumerate(["HS256", "HS384", "HS512", "RS256", "ES256"]):
    seeds[f"signed_claims_{alg}"] = b"\x01" + bytes([i, 0x20]) + json.dumps(claims).encode()
seeds["signed_claims_nested"] = b"\x01\x00\x07" + b'{"a":[[[[{"b":{"c":[1e308,-0.0,"\\u00e9\\ud83d\\ude00"]}}]]]]}'
seeds["signed_claims_not_object"] = b"\x01\x00\x01" + b'[1,2]'
for name, h in {"hs256": '{"alg":"HS256","typ":"JWT","kid":"k1"}', "none": '{"alg":"none"}',
                "lower": '{"alg":"hs256"}', "crit": '{"alg":"HS256","crit":[]}', "dup": '{"alg":"HS256","alg":"HS256"}',
                "alg_number": '{"alg":256}', "not_json": 'alg=HS256'}.items():
    seeds[f"header_{name}"] = b"\x02" + h.encode()
seeds["bearer"] = b"\x03Bearer " + token("HS256", {"sub": "1"}).encode()
seeds["bearer_lower"] = b"\x03bearer   abc.def.ghi"
seeds["subprotocol"] = b"\x03chat, bearer.abc.def.ghi, json"
seeds["public_key_rsa"] = b"\x03" + keys["kRsaPublic"].encode()
seeds["public_key_ec"] = b"\x03" + keys["kEcPublic"].encode()
seeds["base64url"] = b"\x03" + b64(bytes(range(40))).encode()

out.mkdir(parents=True, exist_ok=True)
for old in out.iterdir():
    old.unlink()
for name, data in seeds.items():
    (out / name).write_bytes(data)
print(f"{len(seeds)} seeds in {out}")

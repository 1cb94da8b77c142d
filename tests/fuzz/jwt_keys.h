// Fixed key pairs of the JWT fuzz target, so the seed corpus in corpus/jwt/ carries tokens
// whose signatures verify (a fuzzer cannot forge one). Test keys only: they sign nothing else.
#pragma once

namespace fitz_fuzz_jwt {

inline constexpr char kRsaPrivate[] = R"PEM(-----BEGIN PRIVATE KEY-----
MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDRo+GohIMWw+jQ
eMFjTRjb/FdNA7o3iD9n8Ea4ZST314UAUq534AChaF1NvjiTv7xVYl6QowFj8VjH
Rxh1JXkpKOBG0v1SbBzP7RvvEHd+qqzVNYOZmmHn/9AnI1bjvkpHYFkj50Fu4e+M
o2v+VHp0y/v4FcbMK4/MwjqyYEtZCn0VIoXUMBi0dcVxKxbWIpn8UC9X9pH3IXir
4U0OpryBtJ7V9dSXGPM+L39VE2PpjEIxX/u6ppRLI+bUO6BMDJBRZOx+T/K+yT/C
7C2nkGocqAqp2udkNy5b1Qjz/WOxNDbz1JSgQ02kRv8QORIaQiSphIoD1e099S6k
5kKKBDg/AgMBAAECggEAJppq30EncnW41UqnMcXsofWhjcj17WvlYRpZq3LUj97b
2udewSw6cX5qT/qLKInSAFcQ2slpZCH5Gxj4Y/n2iaHBSslnZFoMJC2hSzBZELYV
BV3JUeufw7zTc6GKSn2r5+DSCU54OhbYqakeJcMgmYlGaLR52vbaj/XkIRyiQ07Z
abaJtqJR7WgDLzUchPhkOFKeIvCzbhzKtXbc6eGFUxtpY1JCeuBqyRI5+dwTrLRC
YwYcx8z+XdKUVr5QS0Fk0/BiOxuVSL3C9O19YzWZ9DhpEXY3XHTAlL5h6kD3KQ7Z
f3zraGtXBG2fVXeKfUmjCEYr+XVrxlW7qUfeXgHoYQKBgQD/NWxqdQJMOH+SKtJA
2n9Oftg3JvEJMwWVCviVs3bqIhkbARodMwn9vBuCTOCpy1lFJT7sCMKlAj4/aQkB
89Fqcj4VSNQ3kHfYrlJxMeTKNfrCl/m7TMdRDJsJFnEvKUScsh/ivTyrYChcVHN7
UaJaW21tBy83pyUE+W7qIo/3awKBgQDSSkmCBLm1aP+bPFQBTGXr2J/3u/Mn48EU
XvH/46mv0z7uLbTQ0o9OO3WWyG4tE5gRLDFbbXYsqIF7b+So1USQln4F43oyDWpb
DykWeSu6Kq2trvTs55PnoTdQCZwgofFqQ/IREBvxm6yDnKejEdll+AY46UZ13rxv
RQ8nZ4h7fQKBgFlQwRigyqUSQNNO2TaJQXSfP9xNbJ3jlViL9mOt4zgdptukjxcY
/a4nXxlC/n1uBVgFqPfCORy2pEJc6CIeynOOd9vLGTo4/TiACapD4+ZA7fmcZnH+
dOMQnlGX4RS4RKLyU+ZuhAUWKgnmJGRMNZ2Z0boOgZ/ghzwub3rRjcDxAoGAek6U
pFdlP5q7F6ml3j92BA8xMyAQk4HG2bdDHyZlmgrOTi8tPEtK6CBzCui2E+eSiWJf
rqJimiTDcmyo3H117HZrA7fDaXseAao2poiBIz0RWLQqZeNmxdChYB7GvMATrk+o
ab4p0oNNehrR8Wk/PSxdShp7TbDnffv3jV6NJe0CgYEAjJwP1zAlTJ4AM8XwDmMd
JXkvr4endk5DDEPNS/QfYiOqNyKNHZRpii2JMeLVcQ6JJozeAiqjaQhQpYiWthU3
orCUcF0E6pdEflYnFxAvnODIxegOsMxGpuQy8HieFGm3epwApwZlxf2MWMUvq7qu
+4XF8K5e4voRwZVrTy9CMvM=
-----END PRIVATE KEY-----
)PEM";
inline constexpr char kRsaPublic[] = R"PEM(-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA0aPhqISDFsPo0HjBY00Y
2/xXTQO6N4g/Z/BGuGUk99eFAFKud+AAoWhdTb44k7+8VWJekKMBY/FYx0cYdSV5
KSjgRtL9Umwcz+0b7xB3fqqs1TWDmZph5//QJyNW475KR2BZI+dBbuHvjKNr/lR6
dMv7+BXGzCuPzMI6smBLWQp9FSKF1DAYtHXFcSsW1iKZ/FAvV/aR9yF4q+FNDqa8
gbSe1fXUlxjzPi9/VRNj6YxCMV/7uqaUSyPm1DugTAyQUWTsfk/yvsk/wuwtp5Bq
HKgKqdrnZDcuW9UI8/1jsTQ289SUoENNpEb/EDkSGkIkqYSKA9XtPfUupOZCigQ4
PwIDAQAB
-----END PUBLIC KEY-----
)PEM";
inline constexpr char kRsaOtherPublic[] = R"PEM(-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAtRMOCVMdNKwtQnmHcNlt
9rEY4bJcc5+PrH4dBj6HZws5XQ3gz4MVcufUiFxRI8jDmP9VHTK686npJwV/rGMK
ntoWkJFyFAOcnKaRzvJVJ+Cc8LuetZIrXlfZ7HH8DUbUNafPyJ2kEbv/VOCaV90U
YucRClyuo/SNAF3zurBTV6oNnxpGGjaSfatdJdJ9Eu8TN7HDT5FCy6TORzYRBewj
d8/Vj4ikIYfr4kduqwyDnVNEibm6HiCcX1D6Ytjkb5P0ilzBVxw4CboelTI7yNFr
bxSIZKdS45iN+ko7rsIa38ReUqMgiYbcdepbPqfmQJmx77JMRSThGjcdSS2XGRoY
qwIDAQAB
-----END PUBLIC KEY-----
)PEM";
inline constexpr char kEcPrivate[] = R"PEM(-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgEDEZjy/fiOb5O1rO
kbmspyHwMNV9nUdwaXrjXA/PBmqhRANCAATvVElRp/cv+op+20ECSYXOrM2T2PbA
B/XqYx1ORQ4pgtNhmF5RP3HPwt4sfT51IlrgbwMr7COt7xWTnoGI3hIc
-----END PRIVATE KEY-----
)PEM";
inline constexpr char kEcPublic[] = R"PEM(-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE71RJUaf3L/qKfttBAkmFzqzNk9j2
wAf16mMdTkUOKYLTYZheUT9xz8LeLH0+dSJa4G8DK+wjre8Vk56BiN4SHA==
-----END PUBLIC KEY-----
)PEM";
inline constexpr char kEcOtherPublic[] = R"PEM(-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEkudTxmPNNa/pSy2ZSY6B216sIGCD
DaZqjkOvQShG898bPeBLRH5V8pd1kxdL+S1f2qSQCu/eyB1m1HZcmoOC3g==
-----END PUBLIC KEY-----
)PEM";
inline constexpr char kSecret[] = "fuzz-secret-0123456789abcdef";
inline constexpr char kOtherSecret[] = "fuzz-secret-0123456789abcdeg";

}  // namespace fitz_fuzz_jwt

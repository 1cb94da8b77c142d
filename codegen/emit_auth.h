// Route guards in generated services: the program's `@auth_provider` becomes one
// `fitz::auth::Guard<User>` (runtime/auth), and `@authenticated`, `@admin` and `@requires(...)`
// become a check against it before the request body is read (401 / 403, never the handler).
//
// How to guard something (HTTP routes in emit_http.cpp; WebSocket upgrades the same way):
//   1. `emit_auth_guard(g)` before the code that checks: it defines `fzauth::guard()` (the
//      Guard over the provider) the first time it is called and does nothing afterwards. It
//      must come after the function prototypes (the provider is called through them).
//   2. `AuthRoute a = auth_route(g, module, fn)`: whether the function is guarded, its
//      Requirement as C++, which parameter receives the user, and whether checking awaits
//      (an async provider), from the service model's Guard and AuthProvider. (A guarded
//      function in a program without a provider is a checker error, GuardWithoutProvider.)
//   3. Then either
//      - `auth_before(a)`: an expression for `.before(...)` on an App route or a WebSocket
//        endpoint, when the user is not bound to a parameter (the check only), or
//      - `emit_auth_check(g, a)`: statements at the top of a wrapper returning
//        `fitz::http::Response` (a coroutine returning `Task<Response>` when `a.coroutine`) that
//        answer 401 / 403 or leave the user in `fz_user`; bind the parameter `a.user_param`
//        to `fz_user.value()`.
#pragma once

#include <string>

#include "codegen/gen.h"

namespace fitz::codegen {

struct AuthRoute {
  bool guarded = false;  // @authenticated, @admin or @requires
  std::string need;      // a fitz::auth::Requirement expression
  int user_param = -1;   // the parameter of the provider's user type, or -1
  bool async = false;    // the provider is async: the check is co_awaited
  bool coroutine = false;  // the function or its provider is async: the wrapper is a coroutine
  // `@server(login_path=)` on a route that may answer HTML: a 401 for a request preferring HTML
  // becomes a 302 there (fitz::http::login_redirect). Empty: the 401 stands.
  std::string login_path;
};

void emit_auth_guard(Gen& g);
AuthRoute auth_route(Gen& g, ModuleId module, FnId fn);
std::string auth_before(const AuthRoute& a);
void emit_auth_check(Gen& g, const AuthRoute& a);

}  // namespace fitz::codegen

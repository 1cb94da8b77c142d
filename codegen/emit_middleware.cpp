// Around middleware in its async forms: `async fn wrap(req, next: Fn() -> Response)` (a sync
// `next()`, so the chain inside must be sync) and `async fn wrap(req, next: Fn() -> Future<
// Response>)` (`next().await` runs the rest of the chain, async handlers included). The
// adapter is a coroutine, so fitz::http::RouteRef::around registers it as async.
#include <fmt/format.h>

#include "codegen/gen.h"

namespace fitz::codegen {

void Gen::emit_async_around(const FnInfo& info, const std::string& id, const std::string& callee,
                            const std::string& req_arg) {
  TypeId nt = info.params[1].type;
  TypeId nr = types_.fn_result(nt);
  bool async_next = types_.kind(nr) == TypeKind::Future;
  TypeId value = async_next ? types_.args(nr)[0] : nr;
  std::string to_value = types_.kind(value) == TypeKind::Any ? "fitz::to_any(fzh::to_fitz({}))" : "fzh::to_fitz({})";
  if (async_next) {
    // The rest of the chain as a task: a named coroutine, not a coroutine lambda, so nothing
    // it uses lives in a closure that could go away while it is suspended.
    line(fmt::format("static fitz::Task<{}> fzmn_{}(fitz::http::Next* next) {{", cpp_type(value), id));
    line("  fitz::http::Response r = co_await next->await();");
    line(fmt::format("  co_return {};", fmt::format(fmt::runtime(to_value), "r")));
    line("}");
  }
  const char* ret = info.is_async ? "fitz::Task<fitz::http::Response>" : "fitz::http::Response";
  line(fmt::format("static {} fzmw_{}(fitz::http::Request& req, fitz::http::Next& next) {{", ret, id));
  if (async_next)
    line(fmt::format("  {} n([np = &next]() {{ return fzmn_{}(np); }});", cpp_type(nt), id));
  else
    line(fmt::format("  {} n([&next]() -> {} {{ return {}; }});", cpp_type(nt), cpp_type(nr),
                     fmt::format(fmt::runtime(to_value), "next.call()")));
  if (info.is_async)
    line(fmt::format("  co_return fzh::finish(co_await {}({}, n));", callee, req_arg));
  else
    line(fmt::format("  return fzh::finish({}({}, n));", callee, req_arg));
  line("}");
}

}  // namespace fitz::codegen

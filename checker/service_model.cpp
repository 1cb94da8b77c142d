// The service model's build: the HTTP half (service_http.cpp) first, since WebSocket endpoints
// reuse its guards and middleware.
#include "checker/service_build.h"

namespace fitz::checker {

void build_service_model(ServiceBuild& b) {
  b.program.service = ServiceModel{};
  detail::build_http_model(b);
  detail::build_task_model(b);
}

}  // namespace fitz::checker

namespace fitz::checker {

std::string_view http_method_name(HttpMethod m) {
  switch (m) {
    case HttpMethod::Get: return "get";
    case HttpMethod::Post: return "post";
    case HttpMethod::Put: return "put";
    case HttpMethod::Patch: return "patch";
    case HttpMethod::Delete: return "delete";
  }
  return "get";
}

std::string_view binding_kind_name(BindingKind k) {
  switch (k) {
    case BindingKind::Path: return "path";
    case BindingKind::Query: return "query";
    case BindingKind::Header: return "header";
    case BindingKind::Cookie: return "cookie";
    case BindingKind::Request: return "request";
    case BindingKind::User: return "user";
    case BindingKind::Form: return "form";
    case BindingKind::Body: return "body";
  }
  return "body";
}

std::string_view middleware_kind_name(MiddlewareUse::Kind k) {
  switch (k) {
    case MiddlewareUse::Kind::Before: return "before";
    case MiddlewareUse::Kind::After: return "after";
    case MiddlewareUse::Kind::Around: return "around";
    case MiddlewareUse::Kind::AroundAsync: return "around_async";
    case MiddlewareUse::Kind::Cors: return "cors";
  }
  return "before";
}

}  // namespace fitz::checker

// The one header generated Fitz programs include. It pulls in only light standard headers
// (<vector>, <tuple>, <coroutine>, <initializer_list>, <type_traits>, <utility>, <new>) and
// nothing from Boost or Asio, so a small program compiles in about a second.
//
// How Fitz maps to C++ (the contract with the code generator):
//   Int -> int64_t   Float -> double   Bool -> bool   Null -> fitz::Null   Str -> fitz::Str
//   List<T> -> fitz::List<T>   Map<K, V> -> fitz::Map<K, V>   T? -> fitz::Nullable<T>
//   Result<T, E> -> fitz::Result<T, E>   (A, B) -> std::tuple<A, B>   () -> std::tuple<>
//   Range -> fitz::Range   Bytes -> fitz::Bytes   Fn(A) -> R -> fitz::Fn<R(A)>
//   Future<T> -> fitz::Task<T>   Any -> fitz::Any   user type T -> fitz::Ref<T> (object.h)
//
//   print(a, b)          fitz::print(a, b)
//   "x={x:.2f}"          fitz::interp("x=", fitz::format_value(x, ".2f", pos))
//   a == b / a < b       fitz::eq(a, b) / fitz::op::lt(a, b)  (plain C++ ops for Int/Float)
//   a + b (Int)          fitz::op::add(a, b, pos)  (sub mul div mod neg shl shr likewise)
//   xs[i] / xs[i] = v    xs.at(i, pos) / xs.set(i, v, pos)    m[k] / m[k] = v: m.at(k, pos) / m.set(k, v)
//   xs[a..b]             xs.slice(a, b, false)  (open ends: 0 and fitz::slice_end)
//   e?                   FITZ_TRY(e) (FITZ_CO_TRY in async fns; e.unwrap(pos) at top level)
//   x.await (top level)  fitz::block_on(x, pos)     x.await (async fn): co_await x
//   runtime error        fitz::runtime_error(pos, "message")
//   program              int main(int c, char** v) { return fitz::run_main(c, v, &top_level); }
#pragma once

#include "fitz/base.h"
#include "fitz/ref.h"
#include "fitz/str.h"
#include "fitz/fn.h"
#include "fitz/result.h"
#include "fitz/list.h"
#include "fitz/map.h"
#include "fitz/range.h"
#include "fitz/bytes.h"
#include "fitz/show.h"
#include "fitz/eq.h"
#include "fitz/object.h"
#include "fitz/ops.h"
#include "fitz/format.h"
#include "fitz/task.h"
#include "fitz/any.h"
#include "fitz/builtins.h"
#include "fitz/log.h"
#include "fitz/date.h"
#include "fitz/stdlib_values.h"
#include "fitz/db.h"
#include "fitz/orm.h"

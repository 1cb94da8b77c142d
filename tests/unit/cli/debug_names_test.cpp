// Generated C++ names read back as Fitz names (what `fitz debug --dap` shows in frames, locals
// and types).
#include "cli/debug_names.h"

#include <gtest/gtest.h>

namespace fitz::cli {
namespace {

TEST(DebugNames, FunctionsHandlersAndMethods) {
  EXPECT_EQ(fitz_function_name("fz0::hm_greet(fitz::Str)"), "greet");
  EXPECT_EQ(fitz_function_name("fz12::f_lookup(fitz::Str const&)"), "lookup");
  EXPECT_EQ(fitz_function_name("fz0::f_main"), "main");
  EXPECT_EQ(fitz_function_name("fz3::T_User::mth_rename(fitz::Str)"), "User.rename");
  EXPECT_EQ(fitz_function_name("fz0::init()"), "<top level>");
}

TEST(DebugNames, Closures) {
  EXPECT_EQ(fitz_function_name("fz0::f_total(fitz::List<long>)::{lambda(long)#1}::operator()(long) const"),
            "total.<closure>");
  EXPECT_EQ(fitz_function_name("auto fz0::f_total(fitz::List<long>)::$_0::operator()(long) const"), "total");
}

TEST(DebugNames, ForeignNamesUnchanged) {
  EXPECT_EQ(fitz_function_name("main"), "main");
  EXPECT_EQ(fitz_function_name("fitz::http::Server::run()"), "fitz::http::Server::run()");
  EXPECT_EQ(fitz_function_name("__libc_start_main"), "__libc_start_main");
  EXPECT_EQ(fitz_function_name("xfz0::f_a()"), "xfz0::f_a()");
  EXPECT_EQ(fitz_function_name("fz0::helper()"), "fz0::helper()");
  EXPECT_EQ(fitz_function_name("fz0::T_User"), "fz0::T_User");
  EXPECT_EQ(fitz_function_name(""), "");
}

TEST(DebugNames, Locals) {
  EXPECT_EQ(fitz_local_name("count_12"), "count");
  EXPECT_EQ(fitz_local_name("user_name_3"), "user_name");
  EXPECT_EQ(fitz_local_name("x_0"), "x");
  EXPECT_EQ(fitz_local_name("req"), "req");
  EXPECT_EQ(fitz_local_name("[0]"), "[0]");
  EXPECT_EQ(fitz_local_name("_12"), "_12");
  EXPECT_EQ(fitz_local_name("a_"), "a_");
  EXPECT_EQ(fitz_local_name("v_2x"), "v_2x");
  EXPECT_EQ(fitz_local_name("[\"a_1\"]"), "[\"a_1\"]");
}

TEST(DebugNames, Types) {
  EXPECT_EQ(fitz_type_name("fitz::Str"), "Str");
  EXPECT_EQ(fitz_type_name("long"), "Int");
  EXPECT_EQ(fitz_type_name("int64_t"), "Int");
  EXPECT_EQ(fitz_type_name("double"), "Float");
  EXPECT_EQ(fitz_type_name("bool"), "Bool");
  EXPECT_EQ(fitz_type_name("const fitz::Str &"), "Str");
  EXPECT_EQ(fitz_type_name("fitz::List<long>"), "List<Int>");
  EXPECT_EQ(fitz_type_name("fitz::Map<fitz::Str, fitz::List<double> >"), "Map<Str, List<Float>>");
  EXPECT_EQ(fitz_type_name("fitz::Nullable<fitz::Str>"), "Str?");
  EXPECT_EQ(fitz_type_name("fitz::Result<long, fitz::Str>"), "Result<Int, Str>");
  EXPECT_EQ(fitz_type_name("fitz::Ref<fz0::T_User>"), "User");
  EXPECT_EQ(fitz_type_name("fitz::List<fitz::Ref<fz2::T_Point> >"), "List<Point>");
  EXPECT_EQ(fitz_type_name("std::tuple<long, fitz::Str>"), "(Int, Str)");
  EXPECT_EQ(fitz_type_name("fitz::http::Request"), "fitz::http::Request");
  EXPECT_EQ(fitz_type_name("std::vector<int>"), "std::vector<int>");
  EXPECT_EQ(fitz_type_name("fitz::List<"), "fitz::List<");
  EXPECT_EQ(fitz_type_name(""), "");
}

}  // namespace
}  // namespace fitz::cli

// End-to-end check of the runtime API: conformance programs translated by hand the way the
// code generator will emit them (handwritten/*.cpp), run in-process with stdout captured and
// compared byte for byte with the expected output of the conformance corpus.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "fitz/runtime.h"
#include "tests/support/source_dir.h"

#define FITZ_HANDWRITTEN_NO_MAIN
namespace hw_str_methods {
#include "handwritten/str_methods.cpp"
}
namespace hw_list_methods {
#include "handwritten/list_methods.cpp"
}
namespace hw_maps_basics {
#include "handwritten/maps_basics.cpp"
}
namespace hw_async_await {
#include "handwritten/async_await.cpp"
}
namespace hw_types_defaults_nullable {
#include "handwritten/types_defaults_nullable.cpp"
}
namespace hw_result_propagation {
#include "handwritten/result_propagation.cpp"
}
namespace hw_interpolation_format {
#include "handwritten/interpolation_format.cpp"
}
namespace hw_closures {
#include "handwritten/closures.cpp"
}
namespace hw_match_literals {
#include "handwritten/match_literals.cpp"
}
namespace hw_tuples_ranges {
#include "handwritten/tuples_ranges.cpp"
}

namespace {

std::string expected(const char* name) {
  std::ifstream in(std::string(fitz_test_source_dir()) + "/tests/unit/runtime/handwritten/" + name + ".out",
                   std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string run(void (*top_level)()) {
  fitz::OutputCapture capture;
  fitz::Panic panic;
  bool failed = fitz::catch_panic(
      [&] {
        top_level();
        fitz::drain();
      },
      &panic);
  EXPECT_FALSE(failed) << panic.message.c_str();
  return capture.take().as<std::string>();
}

}  // namespace

TEST(Handwritten, StrMethods) { EXPECT_EQ(run(&hw_str_methods::fitz_program::top_level), expected("str_methods")); }
TEST(Handwritten, ListMethods) { EXPECT_EQ(run(&hw_list_methods::fitz_program::top_level), expected("list_methods")); }
TEST(Handwritten, MapsBasics) { EXPECT_EQ(run(&hw_maps_basics::fitz_program::top_level), expected("maps_basics")); }
TEST(Handwritten, AsyncAwait) { EXPECT_EQ(run(&hw_async_await::fitz_program::top_level), expected("async_await")); }
TEST(Handwritten, TypesDefaultsNullable) {
  EXPECT_EQ(run(&hw_types_defaults_nullable::fitz_program::top_level), expected("types_defaults_nullable"));
}
TEST(Handwritten, ResultPropagation) {
  EXPECT_EQ(run(&hw_result_propagation::fitz_program::top_level), expected("result_propagation"));
}
TEST(Handwritten, InterpolationFormat) {
  EXPECT_EQ(run(&hw_interpolation_format::fitz_program::top_level), expected("interpolation_format"));
}
TEST(Handwritten, Closures) { EXPECT_EQ(run(&hw_closures::fitz_program::top_level), expected("closures")); }
TEST(Handwritten, MatchLiterals) {
  EXPECT_EQ(run(&hw_match_literals::fitz_program::top_level), expected("match_literals"));
}
TEST(Handwritten, TuplesRanges) { EXPECT_EQ(run(&hw_tuples_ranges::fitz_program::top_level), expected("tuples_ranges")); }

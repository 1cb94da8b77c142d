// How the names of a program's generated C++ read back as Fitz names in a debugger: functions
// are `fzN::f_name`, handlers `fzN::hm_name`, methods `fzN::T_Type::mth_name`, locals `name_ID`,
// fields `fld_name`, and types fitz::Str, fitz::List<T>, fitz::Ref<fzN::T_Type>, ...
#pragma once

#include <string>
#include <string_view>

namespace fitz::cli {

// A debugger's (demangled) function name as Fitz writes it: "fz0::hm_greet(fitz::Str)" is
// "greet", "fz1::T_User::mth_rename(...)" is "User.rename", a closure inside `total` is
// "total.<closure>", a module's top-level code is "<top level>". Names that are not the
// program's own (runtime, libc) come back unchanged.
std::string fitz_function_name(std::string_view cpp);

// A local or parameter: "count_12" is "count". Other names come back unchanged.
std::string fitz_local_name(std::string_view cpp);

// A C++ type as the Fitz type it represents: "fitz::List<long>" is "List<Int>",
// "const fitz::Nullable<fitz::Str> &" is "Str?", "fitz::Ref<fz0::T_User>" is "User".
std::string fitz_type_name(std::string_view cpp);

}  // namespace fitz::cli

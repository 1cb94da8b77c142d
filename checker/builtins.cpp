// The built-in table (spec §4 and the core service built-ins) and its resolution into types.
// Add a built-in here once: the checker, hover, completion and codegen all pick it up.
#include "checker/builtins.h"

#include <llvm/ADT/SmallString.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>

namespace fitz::checker {

namespace {

using R = BuiltinRule;

// clang-format off
const std::vector<BuiltinEntry> kCoreEntries = {
  // ---- global functions ---------------------------------------------------------------------
  {"", "print", "(...values: Any) -> Null", "Prints the values separated by a space, then a newline.", false, false, "fitz_print"},
  {"", "len", "(value: Any) -> Int", "Length of a List, Map, Str (characters), Range or Bytes.", false, false, "fitz_len", R::Sized},
  {"", "sleep", "(ms: Int) -> Future<Null>", "Waits `ms` milliseconds without blocking other tasks.", true, false, "fitz_sleep"},
  {"", "assert", "(condition: Bool, message?: Str) -> Null", "Fails the test (or aborts) when the condition is false.", false, false, "fitz_assert"},
  {"", "assert_eq", "(left: Any, right: Any) -> Null", "Fails unless the values are structurally equal (Int and Float compare by value).", false, false, "fitz_assert_eq"},
  {"", "assert_ne", "(left: Any, right: Any) -> Null", "Fails when the values are structurally equal.", false, false, "fitz_assert_ne"},
  {"", "assert_throws", "(f: Fn() -> Any) -> Null", "Fails unless calling `f` raises a runtime error.", false, false, "fitz_assert_throws"},
  {"", "html_raw", "(markup: Str) -> Html", "Markup to put into a live view's page as it is, unescaped: `{html_raw(s)}` in a template, and what a page layout returns. Everything else a template shows is escaped; only trusted markup belongs here.", false, false, "html_raw"},
  {"", "live_test", "(props: T) -> LiveTest", "Mounts a live view for a test, without a browser: `live_test(Counter { start: 1 })` takes the component's props and gives a `LiveTest` connected as a page would be.", false, false, "fitz_live_test"},
  {"", "live_embed", "(props: T) -> Html", "A live root inside a route handler's own HTML page: `live_embed(Counter { start: 1 })` renders the component as an `@live` page would (mounted, not yet connected, with a join token for the request's user); the response's first root also brings the live styles and the client script. Call it in the handler's body.", false, false, "fitz_live_embed"},
  {"LiveTest", "click", "(selector: Str) -> Null", "Clicks the first element matching `selector` (`tag`, `#id`, `.class`, `[attr=v]`, combined, with descendants): runs the `@click` handler of it or its closest ancestor with one, with its render-time arguments. A failing handler leaves the state as it was (see `error()`).", false, true, "fitz_live_test_click"},
  {"LiveTest", "input", "(selector: Str, value: Str) -> Null", "Types `value` into the matching control: a `bind:` field takes it, else its `@input` (or `@change`) handler runs with `value`.", false, true, "fitz_live_test_input"},
  {"LiveTest", "submit", "(selector: Str, fields?: Map<Str, Str>) -> Null", "Submits the matching form (or the form around the matching element): its `@submit` handler runs with the form's fields, `fields` overriding them.", false, true, "fitz_live_test_submit"},
  {"LiveTest", "tick", "() -> Null", "Runs every `on every` hook of the view once, in declaration order (the root's, then its children's), as if each interval had passed; an async hook runs to its end. A failing hook leaves the state as it was (see `error()`).", false, true, "fitz_live_test_tick"},
  {"LiveTest", "message", "(topic: Str, value: Any) -> Null", "Delivers `value` to every `on message` hook of the view subscribed to `topic`, as `ctx.publish(topic, value)` would: sent as JSON and decoded as the hook's parameter type (a value that does not decode is dropped and reported by `error()`).", false, true, "fitz_live_test_message"},
  {"LiveTest", "html", "() -> Str", "The view's current HTML, as the page would have it.", false, false, "fitz_live_test_html"},
  {"LiveTest", "text", "(selector: Str) -> Str", "The text of the first element matching `selector`.", false, false, "fitz_live_test_text"},
  {"LiveTest", "count", "(selector: Str) -> Int", "How many elements match `selector`.", false, false, "fitz_live_test_count"},
  {"LiveTest", "error", "() -> Str?", "What the last event's handler failed with, or null when it succeeded.", false, false, "fitz_live_test_error"},
  {"", "env", "(name: Str) -> Result<Str>", "The environment variable `name`, or Err when it is unset.", false, false, "fitz_env"},
  {"", "env_or", "(name: Str, fallback: Str) -> Str", "The environment variable `name`, or `fallback` when it is unset.", false, false, "fitz_env_or"},
  {"", "load_env", "(path: Str) -> Result<Null>", "Loads KEY=VALUE lines from a .env file into the environment.", false, false, "fitz_load_env"},
  {"", "bytes", "(text: Str) -> Bytes", "The UTF-8 bytes of a string.", false, false, "fitz_bytes"},
  {"", "random_int", "(lo: Int, hi: Int) -> Int", "A uniformly random Int in lo..=hi (a fast generator, not for secrets).", false, false, "fitz_random_int"},
  {"", "random_float", "() -> Float", "A uniformly random Float in [0, 1) (a fast generator, not for secrets).", false, false, "fitz_random_float"},
  {"", "popcount", "(n: Int) -> Int", "Number of set bits.", false, false, "fitz_popcount"},
  {"", "leading_zeros", "(n: Int) -> Int", "Number of leading zero bits (64-bit).", false, false, "fitz_leading_zeros"},
  {"", "trailing_zeros", "(n: Int) -> Int", "Number of trailing zero bits (64-bit).", false, false, "fitz_trailing_zeros"},
  {"", "rotate_left", "(n: Int, by: Int) -> Int", "Rotates the 64 bits of `n` left.", false, false, "fitz_rotate_left"},
  {"", "rotate_right", "(n: Int, by: Int) -> Int", "Rotates the 64 bits of `n` right.", false, false, "fitz_rotate_right"},
  {"", "abs", "(x: Any) -> Any", "Absolute value of an Int or Float (checked at run time).", false, false, "fitz_abs"},
  {"", "min", "(...values: Any) -> Any", "The smallest argument (numbers, checked at run time).", false, false, "fitz_min"},
  {"", "max", "(...values: Any) -> Any", "The largest argument (numbers, checked at run time).", false, false, "fitz_max"},
  {"", "pow", "(base: Any, exponent: Any) -> Any", "`base` raised to `exponent`.", false, false, "fitz_pow"},
  {"", "sqrt", "(x: Any) -> Any", "Square root.", false, false, "fitz_sqrt"},
  {"", "ceil", "(x: Any) -> Any", "Smallest integer not below `x`.", false, false, "fitz_ceil"},
  {"", "floor", "(x: Any) -> Any", "Largest integer not above `x`.", false, false, "fitz_floor"},
  {"", "round", "(x: Any) -> Any", "`x` rounded to the nearest integer.", false, false, "fitz_round"},
  {"", "clamp", "(x: Any, lo: Any, hi: Any) -> Any", "`x` limited to the range lo..=hi.", false, false, "fitz_clamp"},
  {"", "spawn", "(call: Any) -> Future<Any>", "Runs a call to a @background function as a background job.", false, false, "fitz_spawn"},
  {"", "cors", "(options?: Map<Str, Any>) -> Any", "CORS settings for @middleware(cors({...})); `cors()` takes every default.", false, false, "fitz_cors"},
  {"", "secret", "(name: Str) -> Secret", "An environment secret that prints as ***; `.expose()` reveals it.", false, false, "fitz_secret"},
  {"", "config", "(name: Str, fallback: Any) -> Any", "A configuration value from the environment, or `fallback`.", false, false, "fitz_config"},
  {"", "ws_broadcast", "(path: Str, message: Any) -> Null", "Sends a message to every WebSocket client of the endpoint `path`.", false, false, "fitz_ws_broadcast"},
  {"", "flag", "(name: Str) -> Bool", "Whether the feature flag `name` is on.", false, false, "fitz_flag"},

  // ---- List<T> --------------------------------------------------------------------------------
  {"List<T>", "push", "(value: T) -> Null", "Appends a value at the end.", false, true, "fitz_list_push"},
  {"List<T>", "pop", "() -> T", "Removes and returns the last element (error when empty).", false, true, "fitz_list_pop"},
  {"List<T>", "len", "() -> Int", "Number of elements.", false, false, "fitz_list_len"},
  {"List<T>", "map", "(f: Fn(T) -> U) -> List<U>", "A new list with `f` applied to each element.", false, false, "fitz_list_map"},
  {"List<T>", "filter", "(keep: Fn(T) -> Bool) -> List<T>", "The elements for which `keep` returns true.", false, false, "fitz_list_filter"},
  {"List<T>", "find", "(pred: Fn(T) -> Bool) -> Result<T>", "The first element matching `pred`, or Err.", false, false, "fitz_list_find"},
  {"List<T>", "any", "(pred: Fn(T) -> Bool) -> Bool", "Whether some element matches `pred`.", false, false, "fitz_list_any"},
  {"List<T>", "all", "(pred: Fn(T) -> Bool) -> Bool", "Whether every element matches `pred`.", false, false, "fitz_list_all"},
  {"List<T>", "count", "(pred: Fn(T) -> Bool) -> Int", "How many elements match `pred`.", false, false, "fitz_list_count"},
  {"List<T>", "find_index", "(pred: Fn(T) -> Bool) -> Result<Int>", "The index of the first element matching `pred`, or Err.", false, false, "fitz_list_find_index"},
  {"List<T>", "flat_map", "(f: Fn(T) -> List<U>) -> List<U>", "Maps each element to a list and concatenates the lists.", false, false, "fitz_list_flat_map"},
  {"List<T>", "first", "() -> Result<T>", "The first element, or Err when empty.", false, false, "fitz_list_first"},
  {"List<T>", "last", "() -> Result<T>", "The last element, or Err when empty.", false, false, "fitz_list_last"},
  {"List<T>", "min", "() -> Result<T>", "The smallest number, or Err when empty.", false, false, "fitz_list_min", R::NumericElems},
  {"List<T>", "max", "() -> Result<T>", "The largest number, or Err when empty.", false, false, "fitz_list_max", R::NumericElems},
  {"List<T>", "sum", "() -> T", "The sum of the numbers (0 when empty).", false, false, "fitz_list_sum", R::NumericElems},
  {"List<T>", "product", "() -> T", "The product of the numbers (1 when empty).", false, false, "fitz_list_product", R::NumericElems},
  {"List<T>", "reduce", "(init: A, f: Fn(A, T) -> A) -> A", "Folds the list from the left starting at `init`.", false, false, "fitz_list_reduce"},
  {"List<T>", "scan", "(init: A, f: Fn(A, T) -> A) -> List<A>", "Like reduce, keeping every intermediate value.", false, false, "fitz_list_scan"},
  {"List<(K, V)>", "to_map", "() -> Map<K, V>", "A map from a list of (key, value) pairs.", false, false, "fitz_list_to_map"},
  {"List<T>", "unique", "() -> List<T>", "The elements without duplicates, first occurrence kept.", false, false, "fitz_list_unique"},
  {"List<T>", "partition", "(pred: Fn(T) -> Bool) -> (List<T>, List<T>)", "The elements that match `pred` and those that do not.", false, false, "fitz_list_partition"},
  {"List<T>", "group_by", "(key: Fn(T) -> K) -> Map<K, List<T>>", "Groups the elements by the key `key` returns.", false, false, "fitz_list_group_by"},
  {"List<T>", "zip_with", "(other: List<U>, f: Fn(T, U) -> V) -> List<V>", "Combines pairs of elements with `f` (truncates).", false, false, "fitz_list_zip_with"},
  {"List<T>", "max_by", "(key: Fn(T) -> U) -> Result<T>", "The element with the largest key, or Err when empty.", false, false, "fitz_list_max_by"},
  {"List<T>", "min_by", "(key: Fn(T) -> U) -> Result<T>", "The element with the smallest key, or Err when empty.", false, false, "fitz_list_min_by"},
  {"List<T>", "windows", "(size: Int) -> List<List<T>>", "Every run of `size` consecutive elements.", false, false, "fitz_list_windows"},
  {"List<T>", "split_at", "(index: Int) -> (List<T>, List<T>)", "The elements before and from `index`.", false, false, "fitz_list_split_at"},
  {"List<T>", "starts_with", "(prefix: List<T>) -> Bool", "Whether the list begins with `prefix`.", false, false, "fitz_list_starts_with"},
  {"List<T>", "ends_with", "(suffix: List<T>) -> Bool", "Whether the list ends with `suffix`.", false, false, "fitz_list_ends_with"},
  {"List<T>", "insert_at", "(index: Int, value: T) -> List<T>", "A copy with `value` inserted at `index`.", false, false, "fitz_list_insert_at"},
  {"List<T>", "remove_at", "(index: Int) -> List<T>", "A copy without the element at `index`.", false, false, "fitz_list_remove_at"},
  {"List<T>", "zip_to_map", "(values: List<V>) -> Map<T, V>", "A map from these keys to `values` (truncates).", false, false, "fitz_list_zip_to_map"},
  {"List<T>", "take", "(n: Int) -> List<T>", "The first `n` elements.", false, false, "fitz_list_take"},
  {"List<T>", "drop", "(n: Int) -> List<T>", "The elements after the first `n`.", false, false, "fitz_list_drop"},
  {"List<T>", "cycle", "(n: Int) -> List<T>", "The list repeated `n` times.", false, false, "fitz_list_cycle"},
  {"List<T>", "init", "() -> List<T>", "Every element but the last.", false, false, "fitz_list_init"},
  {"List<T>", "tail", "() -> List<T>", "Every element but the first.", false, false, "fitz_list_tail"},
  {"List<T>", "intersperse", "(sep: T) -> List<T>", "The elements with `sep` between each pair.", false, false, "fitz_list_intersperse"},
  {"List<T>", "sort", "() -> Null", "Sorts the list in place (numbers or strings).", false, true, "fitz_list_sort"},
  {"List<T>", "reverse", "() -> Null", "Reverses the list in place.", false, true, "fitz_list_reverse"},
  {"List<T>", "sort_by", "(compare: Fn(T, T) -> Int) -> Null", "Sorts in place; `compare` returns <0, 0 or >0.", false, true, "fitz_list_sort_by"},
  {"List<T>", "contains", "(value: T) -> Bool", "Whether some element equals `value`.", false, false, "fitz_list_contains"},
  {"List<T>", "enumerate", "() -> List<(Int, T)>", "(index, element) pairs.", false, false, "fitz_list_enumerate"},
  {"List<T>", "zip", "(other: List<U>) -> List<(T, U)>", "Pairs of elements of both lists (truncates).", false, false, "fitz_list_zip"},
  {"List<T>", "chain", "(other: List<T>) -> List<T>", "This list followed by `other`.", false, false, "fitz_list_chain"},
  {"List<List<T>>", "flatten", "() -> List<T>", "Concatenates a list of lists.", false, false, "fitz_list_flatten"},

  // ---- Map<K, V> ----------------------------------------------------------------------------
  {"Map<K, V>", "get", "(key: K) -> Result<V>", "The value for `key`, or Err when absent.", false, false, "fitz_map_get"},
  {"Map<K, V>", "has", "(key: K) -> Bool", "Whether `key` is present.", false, false, "fitz_map_has"},
  {"Map<K, V>", "keys", "() -> List<K>", "The keys in insertion order.", false, false, "fitz_map_keys"},
  {"Map<K, V>", "keys_sorted", "() -> List<K>", "The keys in ascending order.", false, false, "fitz_map_keys_sorted"},
  {"Map<K, V>", "values", "() -> List<V>", "The values in insertion order.", false, false, "fitz_map_values"},
  {"Map<K, V>", "entries", "() -> List<(K, V)>", "(key, value) pairs in insertion order.", false, false, "fitz_map_entries"},
  {"Map<K, V>", "len", "() -> Int", "Number of entries.", false, false, "fitz_map_len"},
  {"Map<K, V>", "invert", "() -> Map<V, K>", "A map from values to keys.", false, false, "fitz_map_invert"},
  {"Map<K, V>", "has_value", "(value: V) -> Bool", "Whether some entry holds `value`.", false, false, "fitz_map_has_value"},
  {"Map<K, V>", "with", "(key: K, value: V) -> Map<K, V>", "A copy with `key` set to `value`.", false, false, "fitz_map_with"},
  {"Map<K, V>", "merge", "(other: Map<K, V>) -> Map<K, V>", "A copy with the entries of `other` (last wins).", false, false, "fitz_map_merge"},
  {"Map<K, V>", "merge_with", "(other: Map<K, V>, f: Fn(V, V) -> V) -> Map<K, V>", "A merge that combines clashing values with `f`.", false, false, "fitz_map_merge_with"},
  {"Map<K, V>", "filter", "(keep: Fn(K, V) -> Bool) -> Map<K, V>", "The entries for which `keep` returns true.", false, false, "fitz_map_filter"},
  {"Map<K, V>", "update", "(key: K, f: Fn(V) -> V) -> Map<K, V>", "A copy with the value of `key` replaced by `f(value)`.", false, false, "fitz_map_update"},
  {"Map<K, V>", "map_values", "(f: Fn(V) -> U) -> Map<K, U>", "A map with `f` applied to each value.", false, false, "fitz_map_map_values"},

  // ---- Str ----------------------------------------------------------------------------------
  {"Str", "len", "() -> Int", "Number of characters (Unicode scalars).", false, false, "fitz_str_len"},
  {"Str", "upper", "() -> Str", "Upper-case copy.", false, false, "fitz_str_upper"},
  {"Str", "lower", "() -> Str", "Lower-case copy.", false, false, "fitz_str_lower"},
  {"Str", "swap_case", "() -> Str", "Copy with the case of each letter swapped.", false, false, "fitz_str_swap_case"},
  {"Str", "title", "() -> Str", "Copy with each word capitalised.", false, false, "fitz_str_title"},
  {"Str", "trim", "() -> Str", "Copy without surrounding whitespace.", false, false, "fitz_str_trim"},
  {"Str", "trim_start", "() -> Str", "Copy without leading whitespace.", false, false, "fitz_str_trim_start"},
  {"Str", "trim_end", "() -> Str", "Copy without trailing whitespace.", false, false, "fitz_str_trim_end"},
  {"Str", "contains", "(part: Str) -> Bool", "Whether `part` occurs in the string.", false, false, "fitz_str_contains"},
  {"Str", "starts_with", "(prefix: Str) -> Bool", "Whether the string begins with `prefix`.", false, false, "fitz_str_starts_with"},
  {"Str", "ends_with", "(suffix: Str) -> Bool", "Whether the string ends with `suffix`.", false, false, "fitz_str_ends_with"},
  {"Str", "split", "(sep: Str) -> List<Str>", "The parts between occurrences of `sep` (\"\" splits into characters).", false, false, "fitz_str_split"},
  {"Str", "chars", "() -> List<Str>", "The characters as one-character strings.", false, false, "fitz_str_chars"},
  {"Str", "lines", "() -> List<Str>", "The lines, without their terminators.", false, false, "fitz_str_lines"},
  {"Str", "is_empty", "() -> Bool", "Whether the string has no characters.", false, false, "fitz_str_is_empty"},
  {"Str", "is_alpha", "() -> Bool", "Whether every character is alphabetic (and there is one).", false, false, "fitz_str_is_alpha"},
  {"Str", "is_digit", "() -> Bool", "Whether every character is an ASCII digit (and there is one).", false, false, "fitz_str_is_digit"},
  {"Str", "is_numeric", "() -> Bool", "Whether the string reads as a number.", false, false, "fitz_str_is_numeric"},
  {"Str", "to_int", "() -> Result<Int>", "The Int the whole string spells (optional sign, decimal digits), or Err.", false, false, "fitz_str_to_int"},
  {"Str", "to_float", "() -> Result<Float>", "The Float the whole string spells (as `is_numeric` reads it, or inf/nan), or Err.", false, false, "fitz_str_to_float"},
  {"Str", "replace", "(old: Str, new: Str) -> Str", "Copy with every `old` replaced by `new`.", false, false, "fitz_str_replace"},
  {"Str", "repeat", "(n: Int) -> Str", "The string repeated `n` times.", false, false, "fitz_str_repeat"},
  {"Str", "repeat_with", "(n: Int, sep: Str) -> Str", "The string repeated `n` times with `sep` between.", false, false, "fitz_str_repeat_with"},
  {"Str", "left", "(n: Int) -> Str", "The first `n` characters.", false, false, "fitz_str_left"},
  {"Str", "right", "(n: Int) -> Str", "The last `n` characters.", false, false, "fitz_str_right"},
  {"Str", "center", "(width: Int, fill: Str) -> Str", "Centred in `width` characters padded with `fill`.", false, false, "fitz_str_center"},
  {"Str", "pad_start", "(width: Int, fill: Str) -> Str", "Padded on the left with `fill` to `width` characters.", false, false, "fitz_str_pad_start"},
  {"Str", "pad_end", "(width: Int, fill: Str) -> Str", "Padded on the right with `fill` to `width` characters.", false, false, "fitz_str_pad_end"},
  {"Str", "split_at", "(index: Int) -> (Str, Str)", "The characters before and from `index`.", false, false, "fitz_str_split_at"},
  {"Str", "find", "(part: Str) -> Result<Int>", "Character index of the first `part`, or Err.", false, false, "fitz_str_find"},
  {"Str", "index_of", "(part: Str) -> Result<Int>", "Character index of the first `part`, or Err.", false, false, "fitz_str_index_of"},
  {"Str", "last_index_of", "(part: Str) -> Result<Int>", "Character index of the last `part`, or Err.", false, false, "fitz_str_last_index_of"},

  // ---- Int, Float, Range, Bytes, Any ------------------------------------------------------------
  {"Int", "abs", "() -> Int", "Absolute value.", false, false, "fitz_int_abs"},
  {"Int", "to_str", "() -> Str", "Decimal text.", false, false, "fitz_int_to_str"},
  {"Int", "to_str_base", "(base: Int) -> Str", "Text in base 2..36.", false, false, "fitz_int_to_str_base"},
  {"Float", "abs", "() -> Float", "Absolute value.", false, false, "fitz_float_abs"},
  {"Float", "to_str", "() -> Str", "Shortest text that reads back as the same Float.", false, false, "fitz_float_to_str"},
  {"Float", "is_nan", "() -> Bool", "Whether the value is NaN.", false, false, "fitz_float_is_nan"},
  {"Float", "is_finite", "() -> Bool", "Whether the value is neither infinite nor NaN.", false, false, "fitz_float_is_finite"},
  {"Range", "len", "() -> Int", "Number of values in the range.", false, false, "fitz_range_len"},
  {"Range", "enumerate", "() -> List<(Int, Int)>", "(index, value) pairs.", false, false, "fitz_range_enumerate"},
  {"Range", "zip", "(other: List<U>) -> List<(Int, U)>", "Pairs of values and elements of `other` (truncates).", false, false, "fitz_range_zip"},
  {"Range", "chain", "(other: List<Int>) -> List<Int>", "The range's values followed by `other`.", false, false, "fitz_range_chain"},
  {"Range", "step_by", "(step: Int) -> List<Int>", "Every `step`-th value of the range.", false, false, "fitz_range_step_by"},
  {"Bytes", "len", "() -> Int", "Number of bytes.", false, false, "fitz_bytes_len"},
  {"Bytes", "is_empty", "() -> Bool", "Whether there are no bytes.", false, false, "fitz_bytes_is_empty"},
  {"Bytes", "to_str", "() -> Result<Str>", "The bytes decoded as UTF-8, or Err.", false, false, "fitz_bytes_to_str"},
  {"Any", "as_int", "() -> Result<Int>", "The value if it is an Int, else Err.", false, false, "fitz_any_as_int"},
  {"Any", "as_float", "() -> Result<Float>", "The value as a Float (Int widened), else Err.", false, false, "fitz_any_as_float"},
  {"Any", "as_str", "() -> Result<Str>", "The value if it is a Str, else Err.", false, false, "fitz_any_as_str"},
  {"Any", "as_bool", "() -> Result<Bool>", "The value if it is a Bool, else Err.", false, false, "fitz_any_as_bool"},
  {"Any", "as_bytes", "() -> Result<Bytes>", "The value if it is Bytes, else Err.", false, false, "fitz_any_as_bytes"},
  {"Any", "type_name", "() -> Str", "The name of the value's run-time type.", false, false, "fitz_any_type_name"},

  // ---- service nominals ---------------------------------------------------------------------------
  {"Db", "connect", "(url: Str) -> Future<Result<DbConn>>", "Leases a connection from the pool of `url` (one pool per URL; FITZ_DB_MAX_CONNS connections).", true, false, "fitz_db_connect"},
  {"DbConn", "query", "(sql: Str, params?: List<Any>) -> Future<Result<List<DbRow>>>", "Runs a query with $1..$n parameters.", true, false, "fitz_db_query"},
  {"DbConn", "exec", "(sql: Str, params?: List<Any>) -> Future<Result<Int>>", "Runs a statement; the affected row count.", true, false, "fitz_db_exec"},
  {"DbConn", "close", "() -> Null", "Returns the connection to its pool.", false, false, "fitz_db_close"},
  {"DbConn", "is_closed", "() -> Bool", "Whether the connection was closed.", false, false, "fitz_db_is_closed"},
  {"DbConn", "transaction", "(body: Fn(DbConn) -> Future<Result<T>>) -> Future<Result<T>>", "Runs `body` inside BEGIN/COMMIT on this connection; rolls back on Err or a runtime error.", true, false, "fitz_db_transaction"},
  {"DbRow", "get", "(column: Str) -> Any", "The value of a column.", false, false, "fitz_row_get"},
  {"DbRow", "get_int", "(column: Str) -> Result<Int>", "An Int column, or Err.", false, false, "fitz_row_get_int"},
  {"DbRow", "get_str", "(column: Str) -> Result<Str>", "A text column, or Err.", false, false, "fitz_row_get_str"},
  {"DbRow", "get_float", "(column: Str) -> Result<Float>", "A Float column, or Err.", false, false, "fitz_row_get_float"},
  {"DbRow", "get_bool", "(column: Str) -> Result<Bool>", "A Bool column, or Err.", false, false, "fitz_row_get_bool"},
  {"DbRow", "len", "() -> Int", "Number of columns.", false, false, "fitz_row_len"},
  {"WsConn<T, U>", "recv", "() -> Result<T>", "Waits for the next message from the client (it suspends like `.await`, so it is allowed where `.await` is) and gives it decoded as `In` (the body decoder), or Err: the reason a message is not an `In` (the connection stays open), or \"connection closed\". `.await` on it is accepted and changes nothing.", false, false, "fitz_ws_recv", BuiltinRule::None, true},
  {"WsConn<T, U>", "send", "(message: U) -> Future<Null>", "Sends an `Out` message to this client (JSON text; Bytes as a binary frame).", true, false, "fitz_ws_send"},
  {"WsConn<T, U>", "broadcast", "(message: U) -> Future<Null>", "Sends an `Out` message to every client of this endpoint, the sender included.", true, false, "fitz_ws_broadcast_conn"},
  {"WsConn<T, U>", "close", "() -> Future<Null>", "Closes the connection.", true, false, "fitz_ws_close"},
  {"Secret", "expose", "() -> Str", "The secret's value.", false, false, "fitz_secret_expose"},
  {"JwtModule", "encode", "(claims: Map<Str, Any>, key: Str, alg?: Str) -> Str", "A signed JSON Web Token of `claims` (claims keep their JSON types). `alg`: HS256 (default), HS384, HS512 with a secret, RS256 or ES256 with a PEM private key.", false, false, "fitz_jwt_encode"},
  {"JwtModule", "decode", "(token: Str, key: Str, alg?: Str) -> Result<Map<Str, Any>>", "The claims of a token signed with `alg` (HS256 by default; RS256 / ES256 with a PEM public key), or Err: bad format or signature, another algorithm or `none`, `exp` passed, `nbf` ahead, a revoked `jti`.", false, false, "fitz_jwt_decode"},
  {"HashModule", "password", "(password: Str) -> Str", "An Argon2id hash of `password` (a PHC string with a random salt).", false, false, "fitz_hash_password"},
  {"HashModule", "verify", "(password: Str, hash: Str) -> Bool", "Whether `hash` is the Argon2id hash of `password` (false for anything else).", false, false, "fitz_hash_verify"},
  {"AuthModule", "revoke", "(jti: Str, exp: Int) -> Null", "Revokes the token id `jti` in this process until `exp` (Unix seconds): `jwt.decode` rejects it.", false, false, "fitz_auth_revoke"},
  {"AuthModule", "is_revoked", "(jti: Str) -> Bool", "Whether `jti` was revoked in this process and has not expired.", false, false, "fitz_auth_is_revoked"},
  {"AuthModule", "blacklist", "(conn: DbConn, jti: Str, exp: Int) -> Future<Result<Null>>", "Records the token id `jti` as revoked until `exp` in the table fitz_token_blacklist (shared by every replica).", true, false, "fitz_auth_blacklist"},
  {"AuthModule", "is_blacklisted", "(conn: DbConn, jti: Str) -> Future<Result<Bool>>", "Whether `jti` is in fitz_token_blacklist and has not expired.", true, false, "fitz_auth_is_blacklisted"},
  {"AuthModule", "cleanup_expired", "(conn: DbConn) -> Future<Result<Int>>", "Deletes expired rows of fitz_token_blacklist; how many.", true, false, "fitz_auth_cleanup_expired"},
  {"LogModule", "debug", "(message: Any, ...more: Any) -> Null", "Writes a debug record: one JSON line on stderr with the message, the request's trace ids and each `name: value` argument as a field.", false, false, "fitz_log_debug", R::Fields},
  {"LogModule", "info", "(message: Any, ...more: Any) -> Null", "Writes an info record (`log.info(\"saved\", id: 3)`); FITZ_LOG sets the lowest level written.", false, false, "fitz_log_info", R::Fields},
  {"LogModule", "warn", "(message: Any, ...more: Any) -> Null", "Writes a warning record.", false, false, "fitz_log_warn", R::Fields},
  {"LogModule", "error", "(message: Any, ...more: Any) -> Null", "Writes an error record.", false, false, "fitz_log_error", R::Fields},
  {"FlagsModule", "is_enabled", "(name: Str) -> Bool", "Whether the feature flag `name` is on (same as `flag(name)`).", false, false, "fitz_flags_is_enabled"},
  {"FlagsModule", "list", "() -> Map<Str, Bool>", "Every known feature flag and whether it is on.", false, false, "fitz_flags_list"},
};

const std::vector<BuiltinValue> kCoreValues = {
  {"db", "Db", "Postgres: `db.connect(url)` leases a pooled connection.", "fitz_mod_db"},
  {"jwt", "JwtModule", "JSON Web Tokens: `jwt.encode`, `jwt.decode`.", "fitz_mod_jwt"},
  {"hash", "HashModule", "Password hashing: `hash.password`, `hash.verify`.", "fitz_mod_hash"},
  {"auth", "AuthModule", "Token revocation: `auth.revoke`, `auth.is_revoked` (in memory), `auth.blacklist`, `auth.is_blacklisted`, `auth.cleanup_expired` (Postgres).", "fitz_mod_auth"},
  {"http", "HttpModule", "Outbound HTTP client: `http.get`, `head`, `delete`, `post`, `put`, `request` (futures of `Result<HttpClientResponse>`).", "fitz_mod_http"},
  {"smtp", "SmtpModule", "Outbound mail: `smtp.send(to, subject, body_text: ..., body_html: ...)` (a future of `Result<SmtpResult>`).", "fitz_mod_smtp"},
  {"log", "LogModule", "Structured logs: `log.info`, `log.warn`, `log.error`, `log.debug`.", "fitz_mod_log"},
  {"flags", "FlagsModule", "Feature flags: `flags.is_enabled`, `flags.list`.", "fitz_mod_flags"},
};

const std::vector<BuiltinNominal> kCoreNominals = {
  {"Request", {"method: Str", "path: Str", "headers: Map<Str, Str>"}, false, false, "The HTTP request a middleware or handler receives."},
  {"Response", {"status: Int = 200", "content_type: Str = \"application/json\"", "headers: Map<Str, Str> = {}", "body: Str?", "body_bytes: Bytes?"}, false, false, "A response built by hand (other content types, headers)."},
  {"File", {"name: Str?", "content_type: Str?", "content: Bytes"}, false, false, "A file part of a multipart/form-data body."},
  {"Html", {}, false, false, "Markup that a live view's page shows unescaped: made by `html_raw(s)`; a `@live(layout=f)` function is `fn f(head: Html, body: Html) -> Html`."},
  {"LiveTest", {}, false, false, "A live view mounted by `live_test` in a test: `click`, `input`, `submit`, `tick`, `message`, `html`, `text`, `count`, `error`."},
  {"HttpClientResponse", {"status: Int", "body: Str", "headers: Map<Str, Str>", "duration_ms: Int"}, false, false, "The answer to an outbound HTTP request: `status`, `body` (text), `headers` (lower-case names), `duration_ms`; `ok()`, `header(name)`, `body_bytes()`, `json()`."},
  {"HttpModule", {}, false, false, "The outbound HTTP module: `http.get`, `http.post`, ..."},
  {"SmtpResult", {"delivered: Bool", "message_id: Str", "duration_ms: Int"}, false, false, "The outcome of sending a mail: `delivered` (always true on Ok), `message_id` (without <>), `duration_ms`."},
  {"SmtpModule", {}, false, false, "The outbound mail module: `smtp.send`."},
  {"Db", {}, true, false, "The Postgres module: `db.connect(url)`."},
  {"JwtModule", {}, false, false, "The JSON Web Token module: `jwt.encode`, `jwt.decode`."},
  {"HashModule", {}, false, false, "The password hashing module: `hash.password`, `hash.verify`."},
  {"AuthModule", {}, false, false, "The token revocation module: `auth.revoke`, `auth.blacklist`, ..."},
  {"LogModule", {}, false, false, "The structured log module: `log.debug`, `log.info`, `log.warn`, `log.error`."},
  {"FlagsModule", {}, false, false, "The feature flag module: `flags.is_enabled`, `flags.list`."},
  {"DbConn", {}, true, false, "A pooled Postgres connection."},
  {"DbRow", {}, true, false, "One row of a query result."},
  {"WsConn", {}, true, true, "A WebSocket connection: WsConn<In, Out> receives In and sends Out messages; WsConn<T> is WsConn<T, T>; WsConn<Bytes> uses binary frames."},
  {"Secret", {}, true, true, "A value that prints as *** and is never serialised."},
};
// clang-format on

template <class T> std::vector<T> joined(const std::vector<T>& a, const std::vector<T>& b) {
  std::vector<T> all = a;
  all.insert(all.end(), b.begin(), b.end());
  return all;
}
// Function-local: the rows of builtins_net.cpp and builtins_values.cpp are other files' statics.
const std::vector<BuiltinEntry>& all_entries() {
  static const std::vector<BuiltinEntry> all = joined(joined(kCoreEntries, net_builtin_entries()), value_builtin_entries());
  return all;
}
const std::vector<BuiltinValue> kValues = joined(kCoreValues, value_builtin_values());
const std::vector<BuiltinNominal> kNominals = joined(kCoreNominals, value_builtin_nominals());

// A tiny recursive-descent reader of the table's type syntax.
class SigReader {
 public:
  SigReader(std::string_view text, TypeStore& types, const Builtins& b) : s_(text), types_(types), b_(b) {}

  bool at_end() { skip(); return i_ >= s_.size(); }
  bool eat(std::string_view tok) {
    skip();
    if (s_.substr(i_, tok.size()) == tok) { i_ += tok.size(); return true; }
    return false;
  }
  std::string ident() {
    skip();
    size_t b = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) ++i_;
    return std::string(s_.substr(b, i_ - b));
  }

  TypeId type() {
    TypeId t = base();
    if (!t.valid()) return t;
    while (eat("?")) t = types_.nullable(t);
    return t;
  }

  TypeId base() {
    if (eat("(")) {
      std::vector<TypeId> elems;
      bool trailing = false;
      while (!eat(")")) {
        TypeId e = type();
        if (!e.valid()) return TypeId();
        elems.push_back(e);
        trailing = eat(",");
        if (!trailing && !eat(")")) return TypeId();
        if (!trailing) break;
      }
      if (elems.size() == 1 && !trailing) return elems[0];
      return types_.tuple(elems);
    }
    std::string name = ident();
    if (name.empty()) return TypeId();
    if (name == "Fn") {
      if (!eat("(")) return TypeId();
      std::vector<TypeId> ps;
      if (!eat(")")) {
        do {
          TypeId p = type();
          if (!p.valid()) return TypeId();
          ps.push_back(p);
        } while (eat(","));
        if (!eat(")")) return TypeId();
      }
      if (!eat("->")) return TypeId();
      TypeId r = type();
      return r.valid() ? types_.fn(ps, r) : r;
    }
    std::vector<TypeId> args;
    if (eat("<")) {
      do {
        TypeId a = type();
        if (!a.valid()) return TypeId();
        args.push_back(a);
      } while (eat(","));
      if (!eat(">")) return TypeId();
    }
    static constexpr std::string_view kVars = "TUKVAB";
    if (name.size() == 1 && kVars.find(name[0]) != std::string_view::npos && args.empty())
      return types_.var(static_cast<uint32_t>(kVars.find(name[0])));
    if (name == "Int") return types_.int_();
    if (name == "Float") return types_.float_();
    if (name == "Bool") return types_.bool_();
    if (name == "Str") return types_.str();
    if (name == "Null") return types_.null();
    if (name == "Any") return types_.any();
    if (name == "Bytes") return types_.bytes();
    if (name == "Range") return types_.range();
    if (name == "List" && args.size() == 1) return types_.list(args[0]);
    if (name == "Map" && args.size() == 2) return types_.map(args[0], args[1]);
    if (name == "Future" && args.size() == 1) return types_.future(args[0]);
    if (name == "Result" && args.size() == 1) return types_.result(args[0], types_.str());
    if (name == "Result" && args.size() == 2) return types_.result(args[0], args[1]);
    if (auto s = b_.nominal(name)) return args.empty() ? types_.struct_type(*s) : types_.struct_type(*s, args);
    return TypeId();
  }

 private:
  void skip() { while (i_ < s_.size() && s_[i_] == ' ') ++i_; }
  std::string_view s_;
  size_t i_ = 0;
  TypeStore& types_;
  const Builtins& b_;
};

[[noreturn]] void table_error(std::string_view what, std::string_view text) {
  std::fprintf(stderr, "internal error: bad built-in %.*s: %.*s\n", int(what.size()), what.data(),
               int(text.size()), text.data());
  std::abort();
}

}  // namespace

const std::vector<BuiltinEntry>& builtin_entries() { return all_entries(); }
const std::vector<BuiltinValue>& builtin_values() { return kValues; }
const std::vector<BuiltinNominal>& builtin_nominals() { return kNominals; }

Builtins::Builtins(const Builtins& other, TypeStore& types)
    : types_(types), sigs_(other.sigs_), functions_(other.functions_), methods_(other.methods_),
      names_by_shape_(other.names_by_shape_), values_(other.values_), value_types_(other.value_types_),
      nominals_(other.nominals_), nominal_rows_(other.nominal_rows_) {}

Builtins::Builtins(TypeStore& types) : types_(types) {
  // Nominals first: signatures and fields may name them.
  for (uint32_t row = 0; row < kNominals.size(); ++row) {
    StructInfo info;
    info.name = std::string(kNominals[row].name);
    info.builtin = true;
    StructId id = types_.add_struct(std::move(info));
    nominals_.emplace(std::string(kNominals[row].name), id);
    nominal_rows_.emplace(id.index, row);
  }
  for (uint32_t row = 0; row < kNominals.size(); ++row) {
    StructInfo& info = types_.struct_info(nominals_.at(std::string(kNominals[row].name)));
    for (std::string_view f : kNominals[row].fields) {
      size_t colon = f.find(':');
      size_t eq = f.find(" = ");
      FieldInfo fi;
      fi.name = std::string(f.substr(0, colon));
      fi.type = parse_type(f.substr(colon + 1, eq == std::string_view::npos ? std::string_view::npos : eq - colon - 1));
      if (!fi.type.valid()) table_error("field", f);
      fi.has_default = eq != std::string_view::npos;
      info.field_index.try_emplace(fi.name, static_cast<uint32_t>(info.fields.size()));
      info.fields.push_back(std::move(fi));
    }
  }
  for (uint32_t i = 0; i < kValues.size(); ++i) {
    values_.emplace(std::string(kValues[i].name), i);
    TypeId t = parse_type(kValues[i].type);
    if (!t.valid()) table_error("value", kValues[i].type);
    value_types_.push_back(t);
  }
  const std::vector<BuiltinEntry>& entries = all_entries();
  sigs_.reserve(entries.size());
  for (uint32_t i = 0; i < entries.size(); ++i) {
    const BuiltinEntry& e = entries[i];
    BuiltinSig sig;
    if (!e.receiver.empty()) {
      sig.receiver = parse_type(e.receiver);
      if (!sig.receiver.valid()) table_error("receiver", e.receiver);
    }
    SigReader r(e.signature, types_, *this);
    if (!r.eat("(")) table_error("signature", e.signature);
    if (!r.eat(")")) {
      do {
        BuiltinParam p;
        p.variadic = r.eat("...");
        p.name = r.ident();
        p.optional = r.eat("?");
        if (p.name.empty() || !r.eat(":")) table_error("signature", e.signature);
        p.type = r.type();
        if (!p.type.valid()) table_error("signature", e.signature);
        sig.params.push_back(std::move(p));
      } while (r.eat(","));
      if (!r.eat(")")) table_error("signature", e.signature);
    }
    if (!r.eat("->")) table_error("signature", e.signature);
    sig.result = r.type();
    if (!sig.result.valid() || !r.at_end()) table_error("signature", e.signature);
    BuiltinId id(i);
    if (e.receiver.empty()) {
      functions_.emplace(std::string(e.name), id);
    } else {
      std::string shape = shape_key(sig.receiver);
      methods_[shape + "." + std::string(e.name)].push_back(id);
      auto& names = names_by_shape_[shape];
      if (std::find(names.begin(), names.end(), e.name) == names.end()) names.push_back(e.name);
    }
    sigs_.push_back(std::move(sig));
  }
}

std::string Builtins::shape_key(TypeId t) const {
  TypeKind k = types_.kind(t);
  if (k == TypeKind::Struct) return "S" + std::to_string(types_.payload(t));
  return "K" + std::to_string(static_cast<int>(k));
}

std::optional<BuiltinId> Builtins::function(std::string_view name) const {
  auto it = functions_.find(std::string(name));
  if (it == functions_.end()) return std::nullopt;
  return it->second;
}

const std::vector<BuiltinId>& Builtins::methods(TypeId receiver, std::string_view name) const {
  static const std::vector<BuiltinId> kNone;
  llvm::SmallString<64> key(shape_key(receiver));
  key += '.';
  key += name;
  auto it = methods_.find(key);
  return it == methods_.end() ? kNone : it->second;
}

std::vector<std::string_view> Builtins::method_names(TypeId receiver) const {
  auto it = names_by_shape_.find(shape_key(receiver));
  if (it == names_by_shape_.end()) return {};
  return it->second;
}

std::optional<uint32_t> Builtins::value(std::string_view name) const {
  auto it = values_.find(std::string(name));
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::optional<StructId> Builtins::nominal(std::string_view name) const {
  auto it = nominals_.find(std::string(name));
  if (it == nominals_.end()) return std::nullopt;
  return it->second;
}

bool Builtins::nominal_is_generic(StructId id) const {
  auto it = nominal_rows_.find(id.index);
  return it != nominal_rows_.end() && kNominals[it->second].generic;
}

bool Builtins::nominal_is_open(StructId id) const {
  auto it = nominal_rows_.find(id.index);
  return it != nominal_rows_.end() && kNominals[it->second].open;
}

TypeId Builtins::parse_type(std::string_view text) const {
  SigReader r(text, types_, *this);
  TypeId t = r.type();
  if (!r.at_end()) return TypeId();
  return t;
}

}  // namespace fitz::checker

#pragma once
// Small, allocation-free readers for the raw args JSON that slices keep (slice.args): the raw text of
// one top-level key's value, that text without whitespace, and the first input's shape of a
// record_shapes op ("Input Dims": [[64,3,224,224], ...]), and the lists op costs read (op_cost.h). Used by OpStatsAnalyzer (kernel grid, block,
// registers, shared memory) and BatchSizeDetector; a full JSON parse per kernel would be too slow
// for a million events.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope::slice_args {

// The raw text of `key`'s value in the args object (an array or object with its brackets, a string with
// its quotes, a number or literal); nullopt when the key is absent or the text is malformed.
std::optional<std::string_view> value(std::string_view json, std::string_view key);

// `text` with the whitespace outside strings removed: "[128, 1, 1]" -> "[128,1,1]".
std::string compact(std::string_view text);

// The dimensions of the first input of "Input Dims" ([[64,3,224,224],[]] -> {64,3,224,224});
// nullopt when absent or the first input is not a list of integers.
std::optional<std::vector<int64_t>> firstInputDims(std::string_view json);

// "[1, 1]" -> {1, 1}; nullopt unless the whole text is one list of integers.
std::optional<std::vector<int64_t>> intList(std::string_view text);

// Every input's shape of "Input Dims" ([[64,3,224,224],[],[[8],[8]]] -> {{64,3,224,224}, {}, nullopt}):
// an empty list for a scalar or absent input, nullopt for a list of tensors; empty when absent. At most 64.
std::vector<std::optional<std::vector<int64_t>>> inputDims(std::string_view json);

// The items of a list of strings ("Input type", "Concrete Inputs"), without their quotes; other items
// as their raw text. Empty when absent. At most 64.
std::vector<std::string> stringList(std::string_view json, std::string_view key);

// A non-negative number (or a string holding one) under `key`; nullopt when absent, negative, NaN or huge.
std::optional<double> number(std::string_view json, std::string_view key);

} // namespace stepscope::slice_args

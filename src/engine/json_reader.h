// Internal to the engine: JSON parsing that cannot throw, abort or overflow the stack, and the
// JSON-path helpers diagnostics use. Not for the UI (it keeps nlohmann out of the public API).
#pragma once

#include "engine/bank_loader.h"
#include "engine/diagnostics.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace imquiz {

// Keeps the author's field order, so problems are reported in document order.
using Json = nlohmann::ordered_json;

struct JsonReadResult {
    std::optional<Json> value;          // absent when the text is not JSON or breaks a limit
    std::vector<Diagnostic> diagnostics;
};

// Parses with nlohmann's SAX interface and builds the document itself, enforcing while parsing:
// the file size, the nesting depth (so a million `[` stop at level max_nesting_depth + 1), the
// length of every string and key, the number of values, duplicate keys (reported, the first
// one kept; a repeated key costs no memory) and numbers that overflow a double. A raw NUL byte
// or a UTF-16/UTF-32 byte order mark is reported before parsing. Malformed JSON and invalid UTF-8 come back with line and column.
JsonReadResult read_json(std::string_view text, std::string_view file_name,
                         const LoadLimits& limits);

// JSON paths as diagnostics show them: `questions[3].choices[1].text`.
std::string path_field(const std::string& parent, std::string_view field);
std::string path_index(const std::string& parent, std::size_t index);

// "a string", "an object", "null"... for "expected X, got Y" messages.
const char* describe_json_type(const Json& value);

// Compact JSON; invalid UTF-8 is replaced (nlohmann's default would throw, i.e. abort).
std::string dump_json(const Json& value);

// Typed access that never throws: null when the value has another type.
const std::string* as_string(const Json& value);
std::optional<double> as_number(const Json& value);
std::optional<long long> as_integer(const Json& value);   // integral numbers, also 3.0
std::optional<bool> as_bool(const Json& value);
const Json* find_field(const Json& object, std::string_view name);

} // namespace imquiz

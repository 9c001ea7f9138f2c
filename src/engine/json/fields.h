// Internal to the engine: checked reads of JSON fields that report every problem at its JSON
// path, shared by the bank/catalog loader and the progress decoder.
#pragma once

#include "engine/diagnostics.h"
#include "engine/ids.h"
#include "engine/json/reader.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace imquiz {

// Nothing but whitespace, by the same rules short answers are compared with.
bool is_blank_text(std::string_view text);
// Shortest readable form for messages ("3.5", "4", "1e+20").
std::string format_number(double value);
// The known name `unknown` most likely stands for (a typo within 1-2 edits), if any.
std::optional<std::string_view> closest_name(std::string_view unknown,
                                             const std::vector<std::string_view>& known);

// Typed reads of JSON values; a wrong type is reported at its path and gives nullopt/null.
// Paths are spelled out only for a report (JsonPath).
class FieldReader {
public:
    explicit FieldReader(DiagnosticCollector& report) : report_(report) {}

    bool expect_object(const JsonValue& value, const JsonPath& path);

    // Unknown fields are errors (with the closest known name); `other_fields` are known
    // elsewhere (another question type) and get `field "x" <other_message>` instead.
    void check_fields(const JsonValue& object, const JsonPath& path,
                      const std::vector<std::string_view>& known,
                      const std::vector<std::string_view>& other_fields = {},
                      std::string_view other_message = {});

    // Reports `missing required field "name"` at `path` when absent.
    const JsonValue* required(const JsonValue& object, const JsonPath& path,
                              std::string_view name);

    std::optional<std::string> string(const JsonValue& value, const JsonPath& path);
    std::optional<bool> boolean(const JsonValue& value, const JsonPath& path);
    std::optional<double> number(const JsonValue& value, const JsonPath& path);
    std::optional<long long> whole_number(const JsonValue& value, const JsonPath& path);
    // The value itself when it is an array.
    const JsonValue* array(const JsonValue& value, const JsonPath& path);
    std::optional<std::string> slug(const JsonValue& value, const JsonPath& path,
                                    std::string_view example);

    void type_error(const JsonPath& path, std::string_view expected, const JsonValue& got);

private:
    DiagnosticCollector& report_;
};

} // namespace imquiz

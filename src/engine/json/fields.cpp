#include "engine/json/fields.h"

#include "engine/unicode.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace imquiz {
namespace {

// Optimal string alignment distance (a swap of neighbours counts once): "explanaton" is 1 from
// "explanation", "corretc" 1 from "correct".
std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i)
        d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j)
        d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const char x = static_cast<char>(std::tolower(static_cast<unsigned char>(a[i - 1])));
            const char y = static_cast<char>(std::tolower(static_cast<unsigned char>(b[j - 1])));
            const std::size_t cost = x == y ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    }
    return d[a.size()][b.size()];
}

} // namespace

bool is_blank_text(std::string_view text) {
    return has_only_white_space(text);
}

std::string format_number(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.15g", value);
    return buffer;
}

std::optional<std::string_view> closest_name(std::string_view unknown,
                                             const std::vector<std::string_view>& known) {
    if (unknown.size() > 40)
        return std::nullopt;   // no typo is that long, and the distance is quadratic
    std::optional<std::string_view> best;
    std::size_t best_distance = 0;
    for (std::string_view candidate : known) {
        const std::size_t distance = edit_distance(unknown, candidate);
        const std::size_t allowed = candidate.size() <= 4 ? 1 : 2;
        if (distance <= allowed && (!best || distance < best_distance)) {
            best = candidate;
            best_distance = distance;
        }
    }
    return best;
}

bool FieldReader::expect_object(const JsonValue& value, const JsonPath& path) {
    if (value.is_object())
        return true;
    type_error(path, "an object", value);
    return false;
}

void FieldReader::check_fields(const JsonValue& object, const JsonPath& path,
                               const std::vector<std::string_view>& known,
                               const std::vector<std::string_view>& other_fields,
                               std::string_view other_message) {
    if (!object.is_object())
        return;
    for (const JsonValue& field : object.children()) {
        if (report_.full())
            return;
        const std::string_view name = field.key();
        if (std::find(known.begin(), known.end(), name) != known.end())
            continue;
        if (std::find(other_fields.begin(), other_fields.end(), name) != other_fields.end()) {
            report_.error(path.str(),
                          "field " + in_quotes(name) + " " + std::string(other_message));
            continue;
        }
        std::string message = "unknown field " + in_quotes(name);
        if (auto suggestion = closest_name(name, known))
            message += " (did you mean " + in_quotes(*suggestion) + "?)";
        report_.error(path.str(), std::move(message));
    }
}

const JsonValue* FieldReader::required(const JsonValue& object, const JsonPath& path,
                                       std::string_view name) {
    const JsonValue* value = find_field(object, name);
    if (value == nullptr)
        report_.error(path.str(), "missing required field " + in_quotes(name));
    return value;
}

std::optional<std::string> FieldReader::string(const JsonValue& value, const JsonPath& path) {
    if (auto text = as_string(value))
        return std::string(*text);
    type_error(path, "a string", value);
    return std::nullopt;
}

std::optional<bool> FieldReader::boolean(const JsonValue& value, const JsonPath& path) {
    if (auto result = as_bool(value))
        return result;
    type_error(path, "true or false", value);
    return std::nullopt;
}

std::optional<double> FieldReader::number(const JsonValue& value, const JsonPath& path) {
    if (auto result = as_number(value))
        return result;
    type_error(path, "a number", value);
    return std::nullopt;
}

std::optional<long long> FieldReader::whole_number(const JsonValue& value, const JsonPath& path) {
    if (auto result = as_integer(value))
        return result;
    if (auto number = as_number(value)) {
        // Whole, but beyond what a double (and so JavaScript) holds exactly.
        if (std::floor(*number) == *number)
            report_.error(path.str(), "number out of range: " + format_number(*number) +
                                          " (the limit is ±9007199254740992)");
        else
            report_.error(path.str(), "expected a whole number, got " + format_number(*number));
    }
    else
        type_error(path, "a whole number", value);
    return std::nullopt;
}

const JsonValue* FieldReader::array(const JsonValue& value, const JsonPath& path) {
    if (value.is_array())
        return &value;
    type_error(path, "an array", value);
    return nullptr;
}

std::optional<std::string> FieldReader::slug(const JsonValue& value, const JsonPath& path,
                                             std::string_view example) {
    auto text = string(value, path);
    if (!text)
        return std::nullopt;
    if (text->size() > max_id_length) {
        report_.error(path.str(),
                      "id is longer than " + std::to_string(max_id_length) + " characters");
        return std::nullopt;
    }
    if (!is_slug(*text)) {
        report_.error(path.str(), "invalid id " + in_quotes(*text) +
                                      ": use lowercase letters, digits and single hyphens, like " +
                                      in_quotes(example));
        return std::nullopt;
    }
    return text;
}

void FieldReader::type_error(const JsonPath& path, std::string_view expected,
                             const JsonValue& got) {
    report_.error(path.str(),
                  "expected " + std::string(expected) + ", got " + describe_json_type(got));
}

} // namespace imquiz

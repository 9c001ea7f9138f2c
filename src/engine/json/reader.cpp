#include "engine/json/reader.h"

#include "engine/json/document_builder.h"

#include <limits>
#include <string>

namespace imquiz {
namespace {

// A byte order mark of another encoding than UTF-8, and what to call it.
const char* other_encoding(std::string_view text) {
    if (text.substr(0, 4) == std::string_view("\xFF\xFE\0\0", 4)) return "UTF-32 (little-endian)";
    if (text.substr(0, 4) == std::string_view("\0\0\xFE\xFF", 4)) return "UTF-32 (big-endian)";
    if (text.substr(0, 2) == "\xFF\xFE") return "UTF-16 (little-endian)";
    if (text.substr(0, 2) == "\xFE\xFF") return "UTF-16 (big-endian)";
    return nullptr;
}

bool is_blank(std::string_view text) {
    for (char c : text)
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            return false;
    return true;
}

// What is reported before parsing, but for a NUL byte (check_no_nul). False when there is nothing
// to parse.
bool check_before_parsing(std::string_view text, std::string_view file_name,
                          const LoadLimits& limits, JsonReadResult& result) {
    const auto file_error = [&](std::string message) {
        Diagnostic diagnostic;
        diagnostic.file = std::string(file_name);
        diagnostic.message = std::move(message);
        result.diagnostics.push_back(std::move(diagnostic));
    };
    if (text.size() > limits.max_file_bytes) {
        file_error("file is too large: " + std::to_string(text.size()) + " bytes (the limit is " +
                   std::to_string(limits.max_file_bytes) + ")");
        return false;
    }
    std::string_view body = text;
    if (body.substr(0, 3) == "\xEF\xBB\xBF")
        body.remove_prefix(3);
    if (is_blank(body)) {
        file_error("file is empty");
        return false;
    }
    if (const char* encoding = other_encoding(text)) {
        file_error(std::string("file is ") + encoding + ": save it as UTF-8");
        return false;
    }
    return true;
}

// A NUL byte is never valid JSON, but nlohmann's lexer takes it for the end of the input: a bank
// followed by a NUL and anything at all would load. UTF-16 without a byte order mark is the usual
// reason for one. False (and reported) when there is one.
bool check_no_nul(std::string_view text, std::string_view file_name, JsonReadResult& result) {
    const std::size_t nul = text.find('\0');
    if (nul == std::string_view::npos)
        return true;
    Diagnostic diagnostic;
    diagnostic.file = std::string(file_name);
    const LineColumn where = line_column_at(text, nul);
    diagnostic.line = where.line;
    diagnostic.column = where.column;
    diagnostic.message = "unexpected NUL byte: the file is not UTF-8 text (UTF-16? binary?)";
    result.diagnostics.push_back(std::move(diagnostic));
    return false;
}

void add_to(JsonDocumentBuilder& builder, const Json& value) {
    switch (value.type()) {
    case Json::value_t::object:
        builder.start_object();
        for (const auto& [name, member] : *value.get_ptr<const Json::object_t*>()) {
            builder.key(name, false);
            add_to(builder, member);
        }
        builder.end_object();
        return;
    case Json::value_t::array:
        builder.start_array();
        for (const Json& element : *value.get_ptr<const Json::array_t*>())
            add_to(builder, element);
        builder.end_array();
        return;
    case Json::value_t::string: builder.string(*value.get_ptr<const std::string*>(), false); return;
    case Json::value_t::boolean: builder.boolean(*value.get_ptr<const bool*>()); return;
    case Json::value_t::number_integer:
        builder.integer(*value.get_ptr<const Json::number_integer_t*>());
        return;
    case Json::value_t::number_unsigned:
        builder.unsigned_integer(*value.get_ptr<const Json::number_unsigned_t*>());
        return;
    case Json::value_t::number_float:
        builder.floating(*value.get_ptr<const Json::number_float_t*>());
        return;
    default: builder.null(); return;
    }
}

} // namespace

JsonReadResult read_json(std::string_view text, std::string_view file_name,
                         const LoadLimits& limits, const JsonArrayLimit* array_limit) {
    JsonReadResult result;
    if (!check_before_parsing(text, file_name, limits, result))
        return result;
    {
        JsonDocumentBuilder builder(text, file_name, limits, array_limit, nullptr);
        builder.reserve_for(text.size());
        const FastReadOutcome outcome = read_fast(text, builder);
        // The fast reader accepts no NUL byte (not in a string, not between values, not after
        // the last one), so a text it read whole has none; the look for one is left to the other
        // outcomes, which report it first as before. It was a byte-by-byte pass over the whole
        // file (Emscripten's size-tuned memchr): 7-9 ms of a 6.4 MiB bank's load in the browser.
        if (outcome == FastReadOutcome::Done) {
            finish_read(result, builder, true);
            return result;
        }
        if (!check_no_nul(text, file_name, result))
            return result;
        if (outcome == FastReadOutcome::Stopped && builder.array_limit_reached() &&
            !builder.needs_exact_position()) {
            finish_read(result, builder, false);
            return result;
        }
    }
    // Malformed, or a limit whose report needs a line and column: nlohmann's parser reads it
    // again from the start, and reports what it finds as it always did.
    return read_with_reference_parser(text, file_name, limits, array_limit);
}

JsonReadResult read_json_with_reference_parser(std::string_view text, std::string_view file_name,
                                               const LoadLimits& limits,
                                               const JsonArrayLimit* array_limit) {
    JsonReadResult result;
    if (!check_before_parsing(text, file_name, limits, result) || !check_no_nul(text, file_name, result))
        return result;
    return read_with_reference_parser(text, file_name, limits, array_limit);
}

Json to_json(const JsonValue& value) {
    switch (value.type()) {
    case JsonValue::Type::Null: return Json(nullptr);
    case JsonValue::Type::Boolean: return Json(*as_bool(value));
    case JsonValue::Type::Integer: return Json(value.payload_.integer);
    case JsonValue::Type::Unsigned: return Json(value.payload_.unsigned_integer);
    case JsonValue::Type::Float: return Json(*as_number(value));
    case JsonValue::Type::String: return Json(std::string(*as_string(value)));
    case JsonValue::Type::Array: {
        Json array = Json::array();
        for (const JsonValue& element : value.children())
            array.push_back(to_json(element));
        return array;
    }
    case JsonValue::Type::Object: {
        Json object = Json::object();
        auto& fields = *object.get_ptr<Json::object_t*>();
        // Keys are unique already: append, without ordered_map's linear search for each.
        for (const JsonValue& member : value.children())
            fields.Json::object_t::Container::emplace_back(std::string(member.key()),
                                                           to_json(member));
        return object;
    }
    }
    return Json(nullptr);
}

JsonDocument to_document(const Json& value) {
    // What was built in memory: no file, and no limit to hold it to.
    LoadLimits unlimited;
    unlimited.max_file_bytes = unlimited.max_text_bytes = unlimited.max_values =
        unlimited.max_nesting_depth = std::numeric_limits<std::size_t>::max();
    JsonDocumentBuilder builder(std::string_view(), std::string_view(), unlimited, nullptr,
                                nullptr);
    add_to(builder, value);
    return builder.take_document();
}

std::string path_field(const std::string& parent, std::string_view field) {
    if (parent.empty())
        return std::string(field);
    std::string path = parent;
    path += '.';
    path += field;
    return path;
}

std::string path_index(const std::string& parent, std::size_t index) {
    return parent + '[' + std::to_string(index) + ']';
}

std::string JsonPath::str() const {
    if (parent_ == nullptr)
        return std::string(name_);
    const std::string parent = parent_->str();
    return is_index_ ? path_index(parent, index_) : path_field(parent, name_);
}

const char* describe_json_type(const JsonValue& value) {
    switch (value.type()) {
    case JsonValue::Type::Null: return "null";
    case JsonValue::Type::Object: return "an object";
    case JsonValue::Type::Array: return "an array";
    case JsonValue::Type::String: return "a string";
    case JsonValue::Type::Boolean: return "true or false";
    case JsonValue::Type::Integer:
    case JsonValue::Type::Unsigned:
    case JsonValue::Type::Float: return "a number";
    }
    return "something else";
}

std::string dump_json(const Json& value) {
    return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::optional<std::string_view> as_string(const JsonValue& value) {
    if (!value.is_string())
        return std::nullopt;
    return std::string_view(value.payload_.string.data, value.payload_.string.size);
}

std::optional<double> as_number(const JsonValue& value) {
    switch (value.type()) {
    case JsonValue::Type::Unsigned: return static_cast<double>(value.payload_.unsigned_integer);
    case JsonValue::Type::Integer: return static_cast<double>(value.payload_.integer);
    case JsonValue::Type::Float: return value.payload_.floating;
    default: return std::nullopt;
    }
}

std::optional<long long> as_integer(const JsonValue& value) {
    switch (value.type()) {
    case JsonValue::Type::Unsigned:
        if (value.payload_.unsigned_integer > 9007199254740992ULL)
            return std::nullopt;
        return static_cast<long long>(value.payload_.unsigned_integer);
    case JsonValue::Type::Integer: return static_cast<long long>(value.payload_.integer);
    case JsonValue::Type::Float: {
        const double floating = value.payload_.floating;
        if (std::floor(floating) == floating && std::fabs(floating) <= 9007199254740992.0)
            return static_cast<long long>(floating);
        return std::nullopt;
    }
    default: return std::nullopt;
    }
}

std::optional<bool> as_bool(const JsonValue& value) {
    if (value.type() != JsonValue::Type::Boolean)
        return std::nullopt;
    return value.payload_.boolean;
}

const JsonValue* find_field(const JsonValue& object, std::string_view name) {
    if (!object.is_object())
        return nullptr;
    for (const JsonValue& member : object.children())
        if (member.key() == name)
            return &member;
    return nullptr;
}

} // namespace imquiz


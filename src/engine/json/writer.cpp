#include "engine/json/writer.h"

#include "engine/json/reader.h"
#include "engine/utf8.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace imquiz {

JsonWriter& JsonWriter::key(std::string_view name) {
    separate();
    quoted(name);
    out_ += ':';
    after_key_ = true;
    return *this;
}

JsonWriter& JsonWriter::string(std::string_view text) {
    separate();
    quoted(text);
    return *this;
}

namespace {
bool needs_no_escape(unsigned char c) { return c >= 0x20 && c < 0x80 && c != '"' && c != '\\'; }
} // namespace

void JsonWriter::quoted(std::string_view text) {
    out_ += '"';
    std::size_t i = 0;
    while (i < text.size()) {
        // A run that needs no escape is appended at once: ids and most texts are one such run,
        // and a 10,000-question attempt's progress record holds tens of thousands of them.
        std::size_t run = i;
        while (run < text.size() && needs_no_escape(static_cast<unsigned char>(text[run]))) ++run;
        if (run > i) {
            out_.append(text.data() + i, run - i);
            i = run;
            continue;
        }
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x80) {
            const std::size_t length = utf8_sequence_length(text.data() + i, text.data() + text.size());
            if (length == 0) {
                out_ += "\xEF\xBF\xBD";   // U+FFFD for a byte that starts no well-formed sequence
                ++i;
            } else {
                out_.append(text.data() + i, length);
                i += length;
            }
            continue;
        }
        ++i;
        switch (c) {
        case '"': out_ += "\\\""; break;
        case '\\': out_ += "\\\\"; break;
        case '\b': out_ += "\\b"; break;
        case '\f': out_ += "\\f"; break;
        case '\n': out_ += "\\n"; break;
        case '\r': out_ += "\\r"; break;
        case '\t': out_ += "\\t"; break;
        default:
            if (c < 0x20) {
                char escape[8];
                std::snprintf(escape, sizeof escape, "\\u%04x", c);
                out_ += escape;
            } else {
                out_ += static_cast<char>(c);
            }
        }
    }
    out_ += '"';
}

JsonWriter& JsonWriter::number(double value) {
    if (!std::isfinite(value))
        return null();
    // The fewest significant digits that read back exactly (17 always do).
    char buffer[32];
    for (int digits = 15; digits <= 17; ++digits) {
        std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
        if (digits == 17 || std::strtod(buffer, nullptr) == value)
            break;
    }
    if (std::strpbrk(buffer, ".eE") == nullptr)
        std::strcat(buffer, ".0");
    return raw(buffer);
}

JsonWriter& JsonWriter::value(const JsonValue& value) {
    switch (value.type()) {
    case JsonValue::Type::Null: return null();
    case JsonValue::Type::Boolean: return boolean(*as_bool(value));
    case JsonValue::Type::Integer: return integer(value.payload_.integer);
    case JsonValue::Type::Unsigned: return unsigned_integer(value.payload_.unsigned_integer);
    case JsonValue::Type::Float: return number(value.payload_.floating);
    case JsonValue::Type::String: return string(*as_string(value));
    case JsonValue::Type::Array:
        begin_array();
        for (const JsonValue& element : value.children())
            this->value(element);
        return end_array();
    case JsonValue::Type::Object:
        begin_object();
        for (const JsonValue& member : value.children()) {
            key(member.key());
            this->value(member);
        }
        return end_object();
    }
    return null();
}

}  // namespace imquiz

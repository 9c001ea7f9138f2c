#include "engine/json_reader.h"

#include "engine/unicode.h"

#include <cmath>
#include <cstddef>
#include <iterator>
#include <memory>
#include <set>

namespace imquiz {
namespace {

// Feeds bytes to nlohmann's lexer and remembers how many it took, so a limit hit inside a SAX
// callback (which gets no position) can still be reported with line and column.
class CountingIterator {
public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    CountingIterator(const char* position, const char** last_read)
        : position_(position), last_read_(last_read) {}
    reference operator*() const { return *position_; }
    CountingIterator& operator++() {
        *last_read_ = position_;
        ++position_;
        return *this;
    }
    CountingIterator operator++(int) {
        CountingIterator before = *this;
        ++*this;
        return before;
    }
    bool operator==(const CountingIterator& other) const { return position_ == other.position_; }
    bool operator!=(const CountingIterator& other) const { return position_ != other.position_; }

private:
    const char* position_;
    const char** last_read_;
};

struct LineColumn {
    int line = 1;
    int column = 1;
};

// 1-based line, and column in characters (UTF-8 continuation bytes don't count), of the byte at
// `offset`.
LineColumn line_column_at(std::string_view text, std::size_t offset) {
    LineColumn result;
    if (offset > text.size())
        offset = text.size();
    for (std::size_t i = 0; i < offset; ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (c == '\n') {
            ++result.line;
            result.column = 1;
        } else if ((c & 0xC0) != 0x80) {
            ++result.column;
        }
    }
    return result;
}

// nlohmann says "[json.exception.parse_error.101] parse error at line 3, column 5: syntax error
// while parsing value - ..."; the position goes into Diagnostic::line/column, the rest stays.
std::string strip_exception_prefix(std::string message) {
    const std::size_t column = message.find(", column ");
    if (column != std::string::npos) {
        const std::size_t colon = message.find(": ", column);
        if (colon != std::string::npos)
            return message.substr(colon + 2);
    }
    const std::size_t bracket = message.find("] ");
    return bracket == std::string::npos ? message : message.substr(bracket + 2);
}

class DocumentBuilder {
public:
    using number_integer_t = Json::number_integer_t;
    using number_unsigned_t = Json::number_unsigned_t;
    using number_float_t = Json::number_float_t;
    using string_t = Json::string_t;
    using binary_t = Json::binary_t;

    DocumentBuilder(std::string_view text, std::string_view file_name, const LoadLimits& limits,
                    const char** last_read)
        : text_(text), file_(file_name), limits_(limits), last_read_(last_read) {}

    bool null() { return add(Json(nullptr)); }
    bool boolean(bool value) { return add(Json(value)); }
    bool number_integer(number_integer_t value) { return add(Json(value)); }
    bool number_unsigned(number_unsigned_t value) { return add(Json(value)); }
    // nlohmann reports a number that overflows a double as a parse error before this.
    bool number_float(number_float_t value, const string_t&) { return add(Json(value)); }
    bool string(string_t& value) {
        if (value.size() > limits_.max_text_bytes)
            error(value_path(), "text " + too_long(value));
        return add(Json(std::move(value)));
    }
    bool binary(binary_t&) { return false; }   // not produced by JSON text

    bool start_object(std::size_t) { return open(Json::object()); }
    bool start_array(std::size_t) { return open(Json::array()); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }

    bool key(string_t& name) {
        Frame& frame = frames_.back();
        if (name.size() > limits_.max_text_bytes)
            error(frame.path, "field name " + too_long(name));
        frame.key = std::move(name);
        frame.duplicate_key = seen_before(frame, frame.key);
        if (frame.duplicate_key)
            error(frame.path, "duplicate field \"" + frame.key + "\"");
        return true;
    }

    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& exception) {
        Diagnostic diagnostic;
        diagnostic.file = std::string(file_);
        const LineColumn where = line_column_at(text_, position > 0 ? position - 1 : 0);
        diagnostic.line = where.line;
        diagnostic.column = where.column;
        // The message quotes the bytes last read, which may be the invalid UTF-8 it complains of.
        diagnostic.message = to_valid_utf8(strip_exception_prefix(exception.what()));
        diagnostics_.push_back(std::move(diagnostic));
        return false;
    }

    std::optional<Json> take_root() { return std::move(root_); }
    std::vector<Diagnostic>& diagnostics() { return diagnostics_; }

private:
    struct Frame {
        Json* container;
        std::string path;
        std::string key;                        // objects: the key of the next value
        bool duplicate_key = false;
        bool discarded = false;                 // the value of a repeated key (owned by discarded_)
        std::set<std::string, std::less<>> key_index;   // objects with many fields: their keys
    };

    // Whether the object being read has a field `name` already. Nearly every object is small
    // and is scanned; a big one gets an index (n fields cost n log n, not n^2/2).
    static bool seen_before(Frame& frame, const std::string& name) {
        const auto& fields = *frame.container->get_ptr<const Json::object_t*>();
        if (frame.key_index.empty() && fields.size() < 16) {
            for (const auto& field : fields)
                if (field.first == name)
                    return true;
            return false;
        }
        if (frame.key_index.empty())
            for (const auto& field : fields)
                frame.key_index.insert(field.first);
        return !frame.key_index.insert(name).second;
    }

    std::string value_path() const {
        if (frames_.empty())
            return std::string();
        const Frame& frame = frames_.back();
        if (frame.container->is_array())
            return path_index(frame.path, frame.container->size());
        return path_field(frame.path, frame.key);
    }

    // Adds `value` where the parser is; returns where it went.
    Json* place(Json&& value) {
        if (frames_.empty()) {
            root_ = std::move(value);
            return &*root_;
        }
        Frame& frame = frames_.back();
        if (frame.container->is_array()) {
            frame.container->push_back(std::move(value));
            return &frame.container->back();
        }
        if (frame.duplicate_key) {
            // The first occurrence wins; later ones are never used. A container is parsed into a
            // value of its own (stable address while it fills) and freed when it closes; a
            // scalar is not kept at all (a million repeats must not cost a million values).
            if (!value.is_structured())
                return &scratch_;
            discarded_.push_back(std::make_unique<Json>(std::move(value)));
            return discarded_.back().get();
        }
        // seen_before() already ruled out a repeat: append, without ordered_map's linear search
        // (which made an object with n fields cost n^2/2 comparisons).
        auto& fields = *frame.container->get_ptr<Json::object_t*>();
        fields.Json::object_t::Container::emplace_back(std::move(frame.key), std::move(value));
        return &fields.back().second;
    }

    // Every value counts against LoadLimits::max_values, so a file that is nothing but `0,` or
    // `{},` cannot make a document larger than a full bank can be.
    bool counted() {
        if (++values_ <= limits_.max_values)
            return true;
        error_at_value("too many values: the limit is " + std::to_string(limits_.max_values) +
                       " numbers, strings, arrays and objects");
        return false;
    }

    bool add(Json&& value) {
        if (!counted())
            return false;
        place(std::move(value));
        return true;
    }

    bool open(Json&& container) {
        if (frames_.size() + 1 > limits_.max_nesting_depth) {
            error_at_value("nesting is deeper than the limit of " +
                           std::to_string(limits_.max_nesting_depth) + " levels");
            return false;
        }
        if (!counted())
            return false;
        const std::string path = value_path();
        const bool discarded = !frames_.empty() && frames_.back().container->is_object() &&
                               frames_.back().duplicate_key;
        Json* placed = place(std::move(container));
        frames_.push_back(Frame{placed, path, std::string(), false, discarded, {}});
        return true;
    }

    bool close() {
        if (frames_.empty())
            return true;
        const bool discarded = frames_.back().discarded;
        frames_.pop_back();
        if (discarded && !discarded_.empty())
            discarded_.pop_back();   // containers of repeated keys close in the order they opened
        return true;
    }

    std::string too_long(const std::string& value) const {
        return "is too long: " + std::to_string(value.size()) + " bytes (the limit is " +
               std::to_string(limits_.max_text_bytes) + ")";
    }

    // The loader's Reporter keeps LoadLimits::max_diagnostics of them: collecting more would
    // only cost memory (a file of repeated keys could ask for millions).
    bool room_for_diagnostics() const {
        return diagnostics_.size() < limits_.max_diagnostics;
    }

    void error(const std::string& path, std::string message) {
        if (!room_for_diagnostics())
            return;
        Diagnostic diagnostic;
        diagnostic.file = std::string(file_);
        diagnostic.path = path;
        diagnostic.message = std::move(message);
        diagnostics_.push_back(std::move(diagnostic));
    }

    // For problems found in a callback: the position of the last byte the lexer read.
    void error_at_value(std::string message) {
        if (!room_for_diagnostics())
            return;
        Diagnostic diagnostic;
        diagnostic.file = std::string(file_);
        const std::size_t offset =
            *last_read_ == nullptr ? 0 : static_cast<std::size_t>(*last_read_ - text_.data());
        const LineColumn where = line_column_at(text_, offset);
        diagnostic.line = where.line;
        diagnostic.column = where.column;
        diagnostic.message = std::move(message);
        diagnostics_.push_back(std::move(diagnostic));
    }

    std::string_view text_;
    std::string_view file_;
    const LoadLimits& limits_;
    const char** last_read_;
    std::optional<Json> root_;
    std::vector<std::unique_ptr<Json>> discarded_;   // open containers of repeated keys
    Json scratch_;                                   // scalars of repeated keys land here
    std::size_t values_ = 0;
    std::vector<Frame> frames_;
    std::vector<Diagnostic> diagnostics_;
};

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

} // namespace

JsonReadResult read_json(std::string_view text, std::string_view file_name,
                         const LoadLimits& limits) {
    JsonReadResult result;
    const auto file_error = [&](std::string message) {
        Diagnostic diagnostic;
        diagnostic.file = std::string(file_name);
        diagnostic.message = std::move(message);
        result.diagnostics.push_back(std::move(diagnostic));
    };
    if (text.size() > limits.max_file_bytes) {
        file_error("file is too large: " + std::to_string(text.size()) + " bytes (the limit is " +
                   std::to_string(limits.max_file_bytes) + ")");
        return result;
    }
    std::string_view body = text;
    if (body.substr(0, 3) == "\xEF\xBB\xBF")
        body.remove_prefix(3);
    if (is_blank(body)) {
        file_error("file is empty");
        return result;
    }
    if (const char* encoding = other_encoding(text)) {
        file_error(std::string("file is ") + encoding + ": save it as UTF-8");
        return result;
    }
    // A NUL byte is never valid JSON, but nlohmann's lexer takes it for the end of the input:
    // a bank followed by a NUL and anything at all would load. UTF-16 without a byte order mark
    // is the usual reason for one.
    if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos) {
        Diagnostic diagnostic;
        diagnostic.file = std::string(file_name);
        const LineColumn where = line_column_at(text, nul);
        diagnostic.line = where.line;
        diagnostic.column = where.column;
        diagnostic.message = "unexpected NUL byte: the file is not UTF-8 text (UTF-16? binary?)";
        result.diagnostics.push_back(std::move(diagnostic));
        return result;
    }

    const char* last_read = nullptr;
    DocumentBuilder builder(text, file_name, limits, &last_read);
    const CountingIterator first(text.data(), &last_read);
    const CountingIterator last(text.data() + text.size(), &last_read);
    const bool parsed = Json::sax_parse(first, last, &builder);
    result.diagnostics = std::move(builder.diagnostics());
    // Well-formed text gives a document even when a string broke a limit or a key repeated
    // (those are in the diagnostics), so the loader can report every other problem too.
    if (parsed)
        result.value = builder.take_root();
    return result;
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

const char* describe_json_type(const Json& value) {
    switch (value.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::object: return "an object";
    case Json::value_t::array: return "an array";
    case Json::value_t::string: return "a string";
    case Json::value_t::boolean: return "true or false";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float: return "a number";
    default: return "something else";
    }
}

std::string dump_json(const Json& value) {
    return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

const std::string* as_string(const Json& value) {
    return value.get_ptr<const std::string*>();
}

// Unsigned first: nlohmann's get_ptr<number_integer_t*> also answers for an unsigned value,
// and reads 10000000000000000000 as -8446744073709551616.
std::optional<double> as_number(const Json& value) {
    if (const auto* unsigned_integer = value.get_ptr<const Json::number_unsigned_t*>())
        return static_cast<double>(*unsigned_integer);
    if (const auto* integer = value.get_ptr<const Json::number_integer_t*>())
        return static_cast<double>(*integer);
    if (const auto* floating = value.get_ptr<const Json::number_float_t*>())
        return *floating;
    return std::nullopt;
}

std::optional<long long> as_integer(const Json& value) {
    if (const auto* unsigned_integer = value.get_ptr<const Json::number_unsigned_t*>()) {
        if (*unsigned_integer > static_cast<Json::number_unsigned_t>(9007199254740992LL))
            return std::nullopt;
        return static_cast<long long>(*unsigned_integer);
    }
    if (const auto* integer = value.get_ptr<const Json::number_integer_t*>())
        return static_cast<long long>(*integer);
    if (const auto* floating = value.get_ptr<const Json::number_float_t*>()) {
        if (std::floor(*floating) == *floating && std::fabs(*floating) <= 9007199254740992.0)
            return static_cast<long long>(*floating);
    }
    return std::nullopt;
}

std::optional<bool> as_bool(const Json& value) {
    if (const auto* boolean = value.get_ptr<const Json::boolean_t*>())
        return *boolean;
    return std::nullopt;
}

const Json* find_field(const Json& object, std::string_view name) {
    const auto* fields = object.get_ptr<const Json::object_t*>();
    if (fields == nullptr)
        return nullptr;
    for (const auto& field : *fields)
        if (field.first == name)
            return &field.second;
    return nullptr;
}

} // namespace imquiz

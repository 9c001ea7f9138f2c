// nlohmann's parser as the reader of last resort: it reads what the fast reader gives up on, and
// words the problem (tests/unit/test_json_reader.cpp checks that the two readers agree).
#include "engine/json/document_builder.h"

#include "engine/unicode.h"

#include <cstddef>
#include <iterator>
#include <string>

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

// nlohmann's SAX interface, passed on to the builder.
class ReferenceParserEvents {
public:
    explicit ReferenceParserEvents(JsonDocumentBuilder& builder) : builder_(builder) {}

    bool null() { return builder_.null(); }
    bool boolean(bool value) { return builder_.boolean(value); }
    bool number_integer(Json::number_integer_t value) { return builder_.integer(value); }
    bool number_unsigned(Json::number_unsigned_t value) { return builder_.unsigned_integer(value); }
    // nlohmann reports a number that overflows a double as a parse error before this.
    bool number_float(Json::number_float_t value, const Json::string_t&) {
        return builder_.floating(value);
    }
    bool string(Json::string_t& value) { return builder_.string(value, false); }
    bool binary(Json::binary_t&) { return false; }   // not produced by JSON text
    bool start_object(std::size_t) { return builder_.start_object(); }
    bool start_array(std::size_t) { return builder_.start_array(); }
    bool end_object() { return builder_.end_object(); }
    bool end_array() { return builder_.end_array(); }
    bool key(Json::string_t& name) { return builder_.key(name, false); }
    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& exception) {
        // The message quotes the bytes last read, which may be the invalid UTF-8 it complains of.
        builder_.syntax_error(position, to_valid_utf8(strip_exception_prefix(exception.what())));
        return false;
    }

private:
    JsonDocumentBuilder& builder_;
};

} // namespace

JsonReadResult read_with_reference_parser(std::string_view text, std::string_view file_name,
                                          const LoadLimits& limits,
                                          const JsonArrayLimit* array_limit) {
    JsonReadResult result;
    const char* last_read = nullptr;
    JsonDocumentBuilder builder(text, file_name, limits, array_limit, &last_read);
    ReferenceParserEvents events(builder);
    const CountingIterator first(text.data(), &last_read);
    const CountingIterator last(text.data() + text.size(), &last_read);
    const bool parsed = Json::sax_parse(first, last, &events);
    finish_read(result, builder, parsed);
    return result;
}

} // namespace imquiz

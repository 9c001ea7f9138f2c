#include "engine/json/reader.h"

#include "engine/unicode.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <limits>
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

} // namespace

// Builds a JsonDocument from parse events and enforces the limits while doing it. Events come
// from the fast reader below or, for text it does not accept, from nlohmann's parser (through
// ReferenceParserEvents), which then also words syntax errors.
class JsonDocumentBuilder {
public:
    // `last_read`: where nlohmann's lexer is, for problems found in a callback (line and column).
    // The fast reader gives none: such a problem stops it, and read_json reads the text again
    // with nlohmann's parser (needs_exact_position()).
    JsonDocumentBuilder(std::string_view text, std::string_view file_name, const LoadLimits& limits,
                        const JsonArrayLimit* array_limit, const char* const* last_read)
        : text_(text), file_(file_name), limits_(limits), array_limit_(array_limit),
          last_read_(last_read) {}

    bool null() { return add(scalar(JsonValue::Type::Null)); }
    bool boolean(bool value) {
        JsonValue added = scalar(JsonValue::Type::Boolean);
        added.payload_.boolean = value;
        return add(added);
    }
    bool integer(std::int64_t value) {
        JsonValue added = scalar(JsonValue::Type::Integer);
        added.payload_.integer = value;
        return add(added);
    }
    bool unsigned_integer(std::uint64_t value) {
        JsonValue added = scalar(JsonValue::Type::Unsigned);
        added.payload_.unsigned_integer = value;
        return add(added);
    }
    bool floating(double value) {
        JsonValue added = scalar(JsonValue::Type::Float);
        added.payload_.floating = value;
        return add(added);
    }
    // `in_text`: the bytes are the text's own (not a decoded copy), so they need not be kept.
    bool string(std::string_view value, bool in_text) {
        if (value.size() > limits_.max_text_bytes)
            error(value_path(), "text " + too_long(value.size()));
        return add(scalar(JsonValue::Type::String), value, in_text);
    }

    bool start_object() { return open(JsonValue::Type::Object); }
    bool start_array() { return open(JsonValue::Type::Array); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }

    bool key(std::string_view name, bool in_text) {
        Frame& frame = frames_.back();
        if (name.size() > limits_.max_text_bytes)
            error(frame_path(frames_.size() - 1), "field name " + too_long(name.size()));
        // Kept even for a repeat: it names the repeated value's path in its own problems.
        frame.key = in_text ? name : keep(name);
        frame.duplicate_key = seen_before(frame, frame.key);
        // The path and message are built only while they can still be reported: a file of two
        // million repeated keys would otherwise build two million of each for nothing.
        if (frame.duplicate_key && room_for_diagnostics())
            error(frame_path(frames_.size() - 1), "duplicate field \"" + std::string(name) + "\"");
        return true;
    }

    // nlohmann's report of malformed text.
    void syntax_error(std::size_t position, const std::string& what) {
        Diagnostic diagnostic;
        diagnostic.file = std::string(file_);
        const LineColumn where = line_column_at(text_, position > 0 ? position - 1 : 0);
        diagnostic.line = where.line;
        diagnostic.column = where.column;
        // The message quotes the bytes last read, which may be the invalid UTF-8 it complains of.
        diagnostic.message = to_valid_utf8(strip_exception_prefix(what));
        diagnostics_.push_back(std::move(diagnostic));
    }

    // Room for the values of a text of `bytes` bytes, so the array is not copied as it grows (a
    // bank has one value per 20 to 25 bytes; a denser text grows it once or twice).
    void reserve_for(std::size_t bytes) {
        values_.reserve(std::min(bytes / 20, limits_.max_values) + 1);
    }

    bool needs_exact_position() const { return needs_exact_position_; }
    bool array_limit_reached() const { return array_limit_reached_; }
    std::vector<Diagnostic>& diagnostics() { return diagnostics_; }

    // Once the whole text was read: the document, its arrays indexed.
    JsonDocument take_document() {
        JsonDocument document;
        document.values_ = std::move(values_);
        document.elements_.reserve(element_indexes_.size());
        for (std::uint32_t index : element_indexes_)
            document.elements_.push_back(&document.values_[index]);
        for (JsonValue& value : document.values_) {
            if (!value.is_array())
                continue;
            const std::uint32_t offset = value.payload_.element_offset;
            value.payload_.elements = document.elements_.data() + offset;
        }
        document.text_blocks_ = std::move(text_blocks_);
        return document;
    }

private:
    struct Frame {
        std::uint32_t value = 0;                // the container's index in values_
        bool is_array = false;
        std::uint32_t count = 0;                // elements or members kept so far
        std::string_view key;                   // objects: the key of the next value
        bool duplicate_key = false;
        bool discarded = false;                 // a repeated key's value: dropped when it closes
        std::size_t pending_start = 0;          // arrays: where its elements start in pending_
        std::size_t element_mark = 0;           // discarded: element_indexes_ size when it opened
        // Where it sits in its parent (for paths, built only when a problem is reported).
        bool in_array = false;
        std::string_view name;
        std::size_t index = 0;
        std::unique_ptr<std::set<std::string_view>> key_index;   // objects with many fields
    };

    static JsonValue scalar(JsonValue::Type type) {
        JsonValue value;
        value.type_ = type;
        return value;
    }

    // Whether the object being read has a field `name` already. Nearly every object is small
    // and is scanned; a big one gets an index (n fields cost n log n, not n^2/2).
    bool seen_before(Frame& frame, std::string_view name) {
        if (!frame.key_index && frame.count < 16) {
            std::size_t at = frame.value + 1;
            for (std::uint32_t i = 0; i < frame.count; ++i, at += values_[at].span_)
                if (values_[at].key() == name)
                    return true;
            return false;
        }
        if (!frame.key_index) {
            frame.key_index = std::make_unique<std::set<std::string_view>>();
            std::size_t at = frame.value + 1;
            for (std::uint32_t i = 0; i < frame.count; ++i, at += values_[at].span_)
                frame.key_index->insert(values_[at].key());
        }
        return !frame.key_index->insert(name).second;
    }

    // The path of frames_[depth], from where each frame sits in its parent.
    std::string frame_path(std::size_t depth) const {
        std::string path;
        for (std::size_t i = 1; i <= depth && i < frames_.size(); ++i) {
            const Frame& frame = frames_[i];
            path = frame.in_array ? path_index(path, frame.index) : path_field(path, frame.name);
        }
        return path;
    }

    std::string value_path() const {
        if (frames_.empty())
            return std::string();
        const Frame& frame = frames_.back();
        const std::string parent = frame_path(frames_.size() - 1);
        return frame.is_array ? path_index(parent, frame.count) : path_field(parent, frame.key);
    }

    // Adds `value` where the reader is; null when it is not kept (a scalar of a repeated key: a
    // million repeats must not cost a million values).
    JsonValue* place(JsonValue value) {
        if (!frames_.empty()) {
            Frame& frame = frames_.back();
            if (frame.is_array) {
                pending_.push_back(static_cast<std::uint32_t>(values_.size()));
                ++frame.count;
            } else if (frame.duplicate_key) {
                // The first occurrence wins; later ones are never used. A container is read into
                // place (its own problems are still reported) and dropped when it closes.
                if (!value.is_structured())
                    return nullptr;
            } else {
                value.key_ = frame.key.data();
                value.key_size_ = static_cast<std::uint32_t>(frame.key.size());
                ++frame.count;
            }
        }
        values_.push_back(value);
        return &values_.back();
    }

    // Every value counts against LoadLimits::max_values, so a file that is nothing but `0,` or
    // `{},` cannot make a document larger than a full bank can be.
    bool counted() {
        if (++values_count_ <= limits_.max_values)
            return true;
        error_at_value("too many values: the limit is " + std::to_string(limits_.max_values) +
                       " numbers, strings, arrays and objects");
        return false;
    }

    // The JsonArrayLimit: the value about to be added would be one element too many.
    bool within_array_limit() {
        if (array_limit_ == nullptr || frames_.size() != 2 || frames_.front().is_array)
            return true;
        const Frame& frame = frames_.back();
        if (!frame.is_array || frame.discarded || frame.name != array_limit_->field ||
            frame.count < array_limit_->max_elements)
            return true;
        array_limit_reached_ = true;
        return false;
    }

    bool add(JsonValue value, std::string_view text = {}, bool in_text = true) {
        if (!within_array_limit() || !counted())
            return false;
        if (JsonValue* placed = place(value); placed != nullptr && placed->is_string()) {
            const std::string_view kept = in_text ? text : keep(text);
            placed->payload_.string.data = kept.data();
            placed->payload_.string.size = static_cast<std::uint32_t>(kept.size());
        }
        return true;
    }

    bool open(JsonValue::Type type) {
        if (frames_.size() + 1 > limits_.max_nesting_depth) {
            error_at_value("nesting is deeper than the limit of " +
                           std::to_string(limits_.max_nesting_depth) + " levels");
            return false;
        }
        if (!within_array_limit() || !counted())
            return false;
        Frame frame;
        frame.is_array = type == JsonValue::Type::Array;
        if (!frames_.empty()) {
            const Frame& parent = frames_.back();
            frame.discarded = !parent.is_array && parent.duplicate_key;
            frame.in_array = parent.is_array;
            frame.name = parent.key;
            frame.index = parent.count;
        }
        frame.value = static_cast<std::uint32_t>(values_.size());
        place(scalar(type));
        frame.pending_start = pending_.size();
        frame.element_mark = element_indexes_.size();
        frames_.push_back(std::move(frame));
        return true;
    }

    bool close() {
        if (frames_.empty())
            return true;
        Frame& frame = frames_.back();
        if (frame.discarded) {
            values_.resize(frame.value);
            element_indexes_.resize(frame.element_mark);
            pending_.resize(frame.pending_start);
        } else {
            JsonValue& value = values_[frame.value];
            value.count_ = frame.count;
            value.span_ = static_cast<std::uint32_t>(values_.size() - frame.value);
            if (frame.is_array) {
                value.payload_.element_offset = static_cast<std::uint32_t>(element_indexes_.size());
                const auto first =
                    pending_.begin() + static_cast<std::ptrdiff_t>(frame.pending_start);
                element_indexes_.insert(element_indexes_.end(), first, pending_.end());
                pending_.resize(frame.pending_start);
            }
        }
        frames_.pop_back();
        return true;
    }

    // A copy of `bytes` that lives as long as the document (decoded strings, nlohmann's keys).
    std::string_view keep(std::string_view bytes) {
        if (bytes.empty())
            return std::string_view("", 0);   // a key "" is still a key (not a null pointer)
        constexpr std::size_t block_size = 16 * 1024;
        char* at = nullptr;
        if (bytes.size() > block_size / 4) {
            text_blocks_.emplace_back(new char[bytes.size()]);   // a big one alone
            at = text_blocks_.back().get();
        } else {
            if (bytes.size() > block_left_) {
                text_blocks_.emplace_back(new char[block_size]);
                block_at_ = text_blocks_.back().get();
                block_left_ = block_size;
            }
            at = block_at_;
            block_at_ += bytes.size();
            block_left_ -= bytes.size();
        }
        std::memcpy(at, bytes.data(), bytes.size());
        return std::string_view(at, bytes.size());
    }

    std::string too_long(std::size_t size) const {
        return "is too long: " + std::to_string(size) + " bytes (the limit is " +
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
        if (last_read_ == nullptr) {
            needs_exact_position_ = true;
            return;
        }
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
    const JsonArrayLimit* array_limit_;
    const char* const* last_read_;
    bool needs_exact_position_ = false;
    bool array_limit_reached_ = false;
    std::size_t values_count_ = 0;
    std::vector<JsonValue> values_;
    std::vector<std::uint32_t> element_indexes_;   // arrays' elements, array by array
    std::vector<std::uint32_t> pending_;           // elements of the arrays still open
    std::vector<std::unique_ptr<char[]>> text_blocks_;
    char* block_at_ = nullptr;
    std::size_t block_left_ = 0;
    std::vector<Frame> frames_;
    std::vector<Diagnostic> diagnostics_;
};

namespace {

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
        builder_.syntax_error(position, exception.what());
        return false;
    }

private:
    JsonDocumentBuilder& builder_;
};

// Reads well-formed JSON into a builder, fast: strings without escapes are not copied, and the
// loops are plain pointer walks. (nlohmann's lexer, compiled for size as the web build is, took
// 200 ms for a 6 MB bank in wasm, a third of the whole load.) It accepts exactly what nlohmann's
// parser accepts and reads it to the same values, or gives up: on anything malformed, read_json
// has nlohmann's parser read the text again, to word the problem as before.
class FastReader {
public:
    enum class Outcome {
        Done,      // the whole text was read
        Stopped,   // the builder said stop (a limit)
        GaveUp,    // malformed, or not sure
    };

    FastReader(std::string_view text, JsonDocumentBuilder& builder)
        : at_(text.data()), end_(text.data() + text.size()), builder_(builder) {}

    Outcome read() {
        // nlohmann skips one UTF-8 byte order mark.
        if (end_ - at_ >= 3 && std::memcmp(at_, "\xEF\xBB\xBF", 3) == 0)
            at_ += 3;
        std::string open;   // 'a' and 'o': the arrays and objects around the reader
        for (;;) {
            // A value.
            skip_white_space();
            if (at_ == end_)
                return Outcome::GaveUp;
            const char c = *at_;
            bool value_done = true;
            if (c == '{' || c == '[') {
                ++at_;
                const bool object = c == '{';
                if (!(object ? builder_.start_object() : builder_.start_array()))
                    return Outcome::Stopped;
                skip_white_space();
                if (at_ != end_ && *at_ == (object ? '}' : ']')) {
                    ++at_;
                    if (!(object ? builder_.end_object() : builder_.end_array()))
                        return Outcome::Stopped;
                } else {
                    open += object ? 'o' : 'a';
                    if (object && !read_key())
                        return outcome_;
                    value_done = false;
                }
            } else if (!read_scalar()) {
                return outcome_;
            }
            if (!value_done)
                continue;
            // After a value: close what ends here, then the next value, or the end of the text.
            for (;;) {
                skip_white_space();
                if (open.empty())
                    return at_ == end_ ? Outcome::Done : Outcome::GaveUp;
                if (at_ == end_)
                    return Outcome::GaveUp;
                const char next = *at_++;
                const bool in_object = open.back() == 'o';
                if (next == ',') {
                    if (in_object && !read_key())
                        return outcome_;
                    break;
                }
                if (next != (in_object ? '}' : ']'))
                    return Outcome::GaveUp;
                open.pop_back();
                if (!(in_object ? builder_.end_object() : builder_.end_array()))
                    return Outcome::Stopped;
            }
        }
    }

private:
    bool give_up() {
        outcome_ = Outcome::GaveUp;
        return false;
    }
    bool stop_if(bool builder_goes_on) {
        if (!builder_goes_on)
            outcome_ = Outcome::Stopped;
        return builder_goes_on;
    }

    void skip_white_space() {
        const char* at = at_;   // a local: through a member, every step would be a store
        while (at != end_ && (*at == ' ' || *at == '\n' || *at == '\r' || *at == '\t'))
            ++at;
        at_ = at;
    }

    // `"name"` then `:`, in an object.
    bool read_key() {
        skip_white_space();
        if (at_ == end_ || *at_ != '"')
            return give_up();
        std::string_view name;
        bool in_text = false;
        if (!read_string(name, in_text) || !stop_if(builder_.key(name, in_text)))
            return false;
        skip_white_space();
        if (at_ == end_ || *at_ != ':')
            return give_up();
        ++at_;
        return true;
    }

    bool read_scalar() {
        const char c = *at_;
        if (c == '"') {
            std::string_view text;
            bool in_text = false;
            return read_string(text, in_text) && stop_if(builder_.string(text, in_text));
        }
        if (c == 't')
            return literal("true") && stop_if(builder_.boolean(true));
        if (c == 'f')
            return literal("false") && stop_if(builder_.boolean(false));
        if (c == 'n')
            return literal("null") && stop_if(builder_.null());
        if (c == '-' || (c >= '0' && c <= '9'))
            return read_number();
        return give_up();
    }

    bool literal(std::string_view word) {
        if (static_cast<std::size_t>(end_ - at_) < word.size() ||
            std::memcmp(at_, word.data(), word.size()) != 0)
            return give_up();
        at_ += word.size();
        return true;
    }

    static bool is_digit(char c) { return c >= '0' && c <= '9'; }

    // JSON's number grammar, then the conversions nlohmann's lexer makes: a whole number without
    // a sign is unsigned, with one signed, and a float when it does not fit (or has a fraction or
    // an exponent).
    bool read_number() {
        const char* start = at_;
        const bool negative = *at_ == '-';
        if (negative)
            ++at_;
        if (at_ == end_ || !is_digit(*at_))
            return give_up();
        if (*at_ == '0')
            ++at_;
        else
            while (at_ != end_ && is_digit(*at_))
                ++at_;
        bool whole = true;
        if (at_ != end_ && *at_ == '.') {
            whole = false;
            ++at_;
            if (at_ == end_ || !is_digit(*at_))
                return give_up();
            while (at_ != end_ && is_digit(*at_))
                ++at_;
        }
        if (at_ != end_ && (*at_ == 'e' || *at_ == 'E')) {
            whole = false;
            ++at_;
            if (at_ != end_ && (*at_ == '+' || *at_ == '-'))
                ++at_;
            if (at_ == end_ || !is_digit(*at_))
                return give_up();
            while (at_ != end_ && is_digit(*at_))
                ++at_;
        }
        number_.assign(start, at_);   // the strto* functions want a terminated string
        const char* first = number_.c_str();
        const char* last = first + number_.size();
        char* stop = nullptr;
        errno = 0;
        if (whole && !negative) {
            const unsigned long long value = std::strtoull(first, &stop, 10);
            if (errno == 0 && stop == last)
                return stop_if(builder_.unsigned_integer(static_cast<std::uint64_t>(value)));
        } else if (whole) {
            const long long value = std::strtoll(first, &stop, 10);
            if (errno == 0 && stop == last)
                return stop_if(builder_.integer(static_cast<std::int64_t>(value)));
        }
        const double value = std::strtod(first, &stop);
        if (stop != last || !std::isfinite(value))
            return give_up();   // nlohmann reports the overflow
        return stop_if(builder_.floating(value));
    }

    // The string at at_ (at its opening quote). Without escapes it is a piece of the text
    // (`in_text`); with them, it is decoded into decoded_.
    bool read_string(std::string_view& text, bool& in_text) {
        const char* start = ++at_;
        for (;;) {
            at_ = skip_plain_ascii(at_, end_);
            if (at_ == end_)
                return give_up();
            const unsigned char c = static_cast<unsigned char>(*at_);
            if (c == '"') {
                text = std::string_view(start, static_cast<std::size_t>(at_ - start));
                in_text = true;
                ++at_;
                return true;
            }
            if (c == '\\') {
                decoded_.assign(start, at_);
                in_text = false;
                if (!read_escaped_rest())
                    return false;
                text = decoded_;
                return true;
            }
            if (c < 0x20 || !skip_utf8_sequence())
                return give_up();   // control characters must be escaped
        }
    }

    // Bytes that end a run of plain text in a string: a quote, a backslash, a control character,
    // the start of a multi-byte UTF-8 sequence. Eight at a time: strings are most of a bank.
    static bool has_special_byte(std::uint64_t eight) {
        constexpr std::uint64_t ones = 0x0101010101010101ULL;
        constexpr std::uint64_t highs = 0x8080808080808080ULL;
        const auto has_zero = [&](std::uint64_t x) { return (x - ones) & ~x & highs; };
        const std::uint64_t below_space = (eight - ones * 0x20) & ~eight & highs;
        return (has_zero(eight ^ (ones * '"')) | has_zero(eight ^ (ones * '\\')) | below_space |
                (eight & highs)) != 0;
    }

    static const char* skip_plain_ascii(const char* at, const char* end) {
        while (end - at >= 8) {
            std::uint64_t eight = 0;
            std::memcpy(&eight, at, 8);
            if (has_special_byte(eight))
                break;
            at += 8;
        }
        while (at != end) {
            const unsigned char c = static_cast<unsigned char>(*at);
            if (c < 0x20 || c == '"' || c == '\\' || c >= 0x80)
                break;
            ++at;
        }
        return at;
    }

    // The rest of a string that has escapes, from the first backslash, into decoded_.
    bool read_escaped_rest() {
        for (;;) {
            if (at_ == end_)
                return give_up();
            const unsigned char c = static_cast<unsigned char>(*at_);
            if (c == '"') {
                ++at_;
                return true;
            }
            if (c == '\\') {
                if (!read_escape())
                    return false;
                continue;
            }
            if (c < 0x20)
                return give_up();
            if (c < 0x80) {
                decoded_ += static_cast<char>(c);
                ++at_;
                continue;
            }
            const char* sequence = at_;
            if (!skip_utf8_sequence())
                return give_up();
            decoded_.append(sequence, at_);
        }
    }

    bool read_escape() {
        ++at_;   // the backslash
        if (at_ == end_)
            return give_up();
        const char c = *at_++;
        switch (c) {
        case '"': decoded_ += '"'; return true;
        case '\\': decoded_ += '\\'; return true;
        case '/': decoded_ += '/'; return true;
        case 'b': decoded_ += '\b'; return true;
        case 'f': decoded_ += '\f'; return true;
        case 'n': decoded_ += '\n'; return true;
        case 'r': decoded_ += '\r'; return true;
        case 't': decoded_ += '\t'; return true;
        case 'u': break;
        default: return give_up();
        }
        char32_t code_point = 0;
        if (!hex4(code_point))
            return give_up();
        if (code_point >= 0xDC00 && code_point <= 0xDFFF)
            return give_up();   // a low surrogate must follow a high one
        if (code_point >= 0xD800 && code_point <= 0xDBFF) {
            char32_t low = 0;
            if (end_ - at_ < 2 || at_[0] != '\\' || at_[1] != 'u')
                return give_up();
            at_ += 2;
            if (!hex4(low) || low < 0xDC00 || low > 0xDFFF)
                return give_up();
            code_point = 0x10000 + ((code_point - 0xD800) << 10) + (low - 0xDC00);
        }
        append_utf8(code_point);
        return true;
    }

    bool hex4(char32_t& value) {
        if (end_ - at_ < 4)
            return false;
        value = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = *at_++;
            int digit = 0;
            if (c >= '0' && c <= '9')
                digit = c - '0';
            else if (c >= 'a' && c <= 'f')
                digit = c - 'a' + 10;
            else if (c >= 'A' && c <= 'F')
                digit = c - 'A' + 10;
            else
                return false;
            value = value * 16 + static_cast<char32_t>(digit);
        }
        return true;
    }

    void append_utf8(char32_t code_point) {
        if (code_point < 0x80) {
            decoded_ += static_cast<char>(code_point);
        } else if (code_point < 0x800) {
            decoded_ += static_cast<char>(0xC0 | (code_point >> 6));
            decoded_ += static_cast<char>(0x80 | (code_point & 0x3F));
        } else if (code_point < 0x10000) {
            decoded_ += static_cast<char>(0xE0 | (code_point >> 12));
            decoded_ += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
            decoded_ += static_cast<char>(0x80 | (code_point & 0x3F));
        } else {
            decoded_ += static_cast<char>(0xF0 | (code_point >> 18));
            decoded_ += static_cast<char>(0x80 | ((code_point >> 12) & 0x3F));
            decoded_ += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
            decoded_ += static_cast<char>(0x80 | (code_point & 0x3F));
        }
    }

    // One UTF-8 sequence of 2 to 4 bytes at at_, well-formed (RFC 3629: no overlong forms, no
    // surrogates, nothing above U+10FFFF), as nlohmann's lexer checks it.
    bool skip_utf8_sequence() {
        const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(at_[i]); };
        const unsigned char lead = byte(0);
        std::size_t length = 0;
        unsigned char low = 0x80;    // the range of the second byte
        unsigned char high = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) {
            length = 2;
        } else if (lead == 0xE0) {
            length = 3;
            low = 0xA0;
        } else if (lead == 0xED) {
            length = 3;
            high = 0x9F;
        } else if (lead >= 0xE1 && lead <= 0xEF) {
            length = 3;
        } else if (lead == 0xF0) {
            length = 4;
            low = 0x90;
        } else if (lead == 0xF4) {
            length = 4;
            high = 0x8F;
        } else if (lead >= 0xF1 && lead <= 0xF3) {
            length = 4;
        } else {
            return false;
        }
        if (static_cast<std::size_t>(end_ - at_) < length || byte(1) < low || byte(1) > high)
            return false;
        for (std::size_t i = 2; i < length; ++i)
            if ((byte(i) & 0xC0) != 0x80)
                return false;
        at_ += length;
        return true;
    }

    const char* at_;
    const char* end_;
    JsonDocumentBuilder& builder_;
    Outcome outcome_ = Outcome::GaveUp;
    std::string decoded_;
    std::string number_;
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

// What is reported before parsing. False when there is nothing to parse.
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
        return false;
    }
    return true;
}

// Well-formed text gives a document even when a string broke a limit or a key repeated (those
// are in the diagnostics), so the loader can report every other problem too.
void finish(JsonReadResult& result, JsonDocumentBuilder& builder, bool read_whole_text) {
    result.diagnostics = std::move(builder.diagnostics());
    result.array_limit_reached = builder.array_limit_reached();
    if (read_whole_text)
        result.document = builder.take_document();
}

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
    finish(result, builder, parsed);
    return result;
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
        const FastReader::Outcome outcome = FastReader(text, builder).read();
        const bool stopped_at_array_limit = outcome == FastReader::Outcome::Stopped &&
                                            builder.array_limit_reached() &&
                                            !builder.needs_exact_position();
        if (outcome == FastReader::Outcome::Done || stopped_at_array_limit) {
            finish(result, builder, outcome == FastReader::Outcome::Done);
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
    if (!check_before_parsing(text, file_name, limits, result))
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

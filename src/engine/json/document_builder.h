// Internal to engine/json/: the one place a JsonDocument is built and the read limits are held.
// Both readers feed it (fast_reader.cpp for well-formed text, reference_reader.cpp through
// nlohmann's parser for the rest); reader.cpp chooses between them.
#pragma once

#include "engine/json/reader.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace imquiz {

struct LineColumn {
    int line = 1;
    int column = 1;
};

// 1-based line, and column in characters (UTF-8 continuation bytes don't count), of the byte at
// `offset`.
inline LineColumn line_column_at(std::string_view text, std::size_t offset) {
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

// Builds a JsonDocument from parse events and enforces the limits while doing it. Events come
// from the fast reader (fast_reader.cpp) or, for text it does not accept, from nlohmann's parser
// (reference_reader.cpp), which then also words syntax errors.
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

    // nlohmann's report of malformed text, at the byte offset it gives, already worded.
    void syntax_error(std::size_t position, std::string message) {
        Diagnostic diagnostic;
        diagnostic.file = std::string(file_);
        const LineColumn where = line_column_at(text_, position > 0 ? position - 1 : 0);
        diagnostic.line = where.line;
        diagnostic.column = where.column;
        diagnostic.message = std::move(message);
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

// Well-formed text gives a document even when a string broke a limit or a key repeated (those
// are in the diagnostics), so the loader can report every other problem too.
inline void finish_read(JsonReadResult& result, JsonDocumentBuilder& builder,
                        bool read_whole_text) {
    result.diagnostics = std::move(builder.diagnostics());
    result.array_limit_reached = builder.array_limit_reached();
    if (read_whole_text)
        result.document = builder.take_document();
}

enum class FastReadOutcome {
    Done,      // the whole text was read
    Stopped,   // the builder said stop (a limit)
    GaveUp,    // malformed, or not sure
};

// Reads well-formed JSON into `builder` (fast_reader.cpp).
FastReadOutcome read_fast(std::string_view text, JsonDocumentBuilder& builder);

// Reads `text` with nlohmann's SAX parser, which words every syntax error (reference_reader.cpp).
JsonReadResult read_with_reference_parser(std::string_view text, std::string_view file_name,
                                          const LoadLimits& limits,
                                          const JsonArrayLimit* array_limit);

} // namespace imquiz

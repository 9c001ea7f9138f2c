// Internal to the engine: reading JSON into a JsonDocument (cannot throw, abort or overflow the
// stack), writing it with nlohmann::ordered_json, and the JSON-path helpers diagnostics use. Not
// for the UI (it keeps nlohmann out of the public API).
#pragma once

#include "engine/diagnostics.h"
#include "engine/limits.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace imquiz {

// For writing JSON (progress records, banks written by quizc). Keeps the field order.
using Json = nlohmann::ordered_json;

class JsonDocumentBuilder;

// One value of a JsonDocument. Values live in one flat array (no allocation per value: a bank
// of 10,000 questions is 300,000 of them), so they are only handled by reference.
class JsonValue {
public:
    enum class Type : std::uint8_t { Null, Boolean, Integer, Unsigned, Float, String, Array, Object };

    Type type() const { return type_; }
    bool is_null() const { return type_ == Type::Null; }
    bool is_string() const { return type_ == Type::String; }
    bool is_array() const { return type_ == Type::Array; }
    bool is_object() const { return type_ == Type::Object; }
    bool is_structured() const { return is_array() || is_object(); }

    // The member's name, for a member of an object ("" otherwise).
    std::string_view key() const { return std::string_view(key_, key_size_); }

    // Arrays and objects: how many elements or members (0 for anything else).
    std::size_t size() const { return is_structured() ? count_ : 0; }
    bool empty() const { return size() == 0; }
    // Arrays: element `index` (< size()), in constant time.
    const JsonValue& operator[](std::size_t index) const { return *payload_.elements[index]; }

    // Arrays and objects: the elements or members, in document order.
    class Children {
    public:
        class Iterator {
        public:
            explicit Iterator(const JsonValue* at) : at_(at) {}
            const JsonValue& operator*() const { return *at_; }
            const JsonValue* operator->() const { return at_; }
            Iterator& operator++() {
                at_ += at_->span_;
                return *this;
            }
            bool operator!=(const Iterator& other) const { return at_ != other.at_; }
            bool operator==(const Iterator& other) const { return at_ == other.at_; }

        private:
            const JsonValue* at_;
        };
        explicit Children(const JsonValue& parent) : parent_(parent) {}
        // A container's values follow it in the array; span_ jumps over a whole subtree.
        Iterator begin() const { return Iterator(&parent_ + 1); }
        Iterator end() const { return Iterator(parent_.is_structured() ? &parent_ + parent_.span_ : &parent_ + 1); }

    private:
        const JsonValue& parent_;
    };
    Children children() const { return Children(*this); }

private:
    friend class JsonDocumentBuilder;
    friend class JsonWriter;   // writes integers and floats back exactly as read
    friend std::optional<std::string_view> as_string(const JsonValue& value);
    friend std::optional<double> as_number(const JsonValue& value);
    friend std::optional<long long> as_integer(const JsonValue& value);
    friend std::optional<bool> as_bool(const JsonValue& value);
    friend Json to_json(const JsonValue& value);

    union Payload {
        bool boolean;
        std::int64_t integer;
        std::uint64_t unsigned_integer;
        double floating;
        struct {
            const char* data;
            std::uint32_t size;
        } string;
        std::uint32_t element_offset;         // arrays, while the document is being built
        const JsonValue* const* elements;    // arrays, once it is complete
    };

    Payload payload_{};
    const char* key_ = nullptr;
    std::uint32_t key_size_ = 0;
    std::uint32_t count_ = 0;      // arrays and objects: elements or members
    std::uint32_t span_ = 1;       // values in this subtree, this one included
    Type type_ = Type::Null;
};

// A whole JSON text, read. Strings without escapes point into the text it was read from: the
// text must outlive the document. Move-only (values point at each other).
class JsonDocument {
public:
    JsonDocument(JsonDocument&&) = default;
    JsonDocument& operator=(JsonDocument&&) = default;
    JsonDocument(const JsonDocument&) = delete;
    JsonDocument& operator=(const JsonDocument&) = delete;

    const JsonValue& root() const { return values_.front(); }

private:
    friend class JsonDocumentBuilder;
    JsonDocument() = default;

    std::vector<JsonValue> values_;                   // depth-first, a container before its values
    std::vector<const JsonValue*> elements_;          // every array's elements, array by array
    std::vector<std::unique_ptr<char[]>> text_blocks_;   // strings that are not verbatim in the text
};

// Stop reading when one array field of the top-level object gets more than `max_elements`
// elements: a bank over the question limit is refused without reading (and holding) the rest.
struct JsonArrayLimit {
    std::string_view field;
    std::size_t max_elements = 0;
};

struct JsonReadResult {
    std::optional<JsonDocument> document;   // absent when the text is not JSON or breaks a limit
    std::vector<Diagnostic> diagnostics;
    bool array_limit_reached = false;       // stopped by the JsonArrayLimit (no document)
};

// Reads `text` enforcing, while reading: the file size, the nesting depth (so a million `[` stop
// at level max_nesting_depth + 1), the length of every string and key, the number of values,
// duplicate keys (reported, the first one kept; a repeated key costs no memory), numbers that
// overflow a double and the optional array limit. A raw NUL byte or a UTF-16/UTF-32 byte order
// mark is reported before parsing. Malformed JSON and invalid UTF-8 come back with line and
// column, in nlohmann's words: well-formed text is read by a fast reader of our own, and anything
// it does not accept is read again by nlohmann's parser, which words the problem.
JsonReadResult read_json(std::string_view text, std::string_view file_name,
                         const LoadLimits& limits, const JsonArrayLimit* array_limit = nullptr);

// The same through nlohmann's parser alone (slower): tests and fuzzers check that both agree.
JsonReadResult read_json_with_reference_parser(std::string_view text, std::string_view file_name,
                                               const LoadLimits& limits,
                                               const JsonArrayLimit* array_limit = nullptr);

// Conversions for writing what was read (a progress export carries stored records as they are)
// and for reading what was built (a migrated progress record).
Json to_json(const JsonValue& value);
JsonDocument to_document(const Json& value);

// JSON paths as diagnostics show them: `questions[3].choices[1].text`.
std::string path_field(const std::string& parent, std::string_view field);
std::string path_index(const std::string& parent, std::size_t index);

// A JSON path spelled out only when a problem is reported: a big bank has hundreds of thousands
// of values and nearly all of them are fine. A path made by field() or index() refers to its
// parent: pass it down a call chain while the parent lives, never keep it.
class JsonPath {
public:
    JsonPath() = default;                                       // the whole document
    JsonPath(const std::string& spelled_out) : name_(spelled_out) {}
    JsonPath(const char* spelled_out) : name_(spelled_out) {}

    JsonPath field(std::string_view name) const { return JsonPath(this, name, 0, false); }
    JsonPath index(std::size_t index) const { return JsonPath(this, std::string_view(), index, true); }
    std::string str() const;

private:
    JsonPath(const JsonPath* parent, std::string_view name, std::size_t index, bool is_index)
        : parent_(parent), name_(name), index_(index), is_index_(is_index) {}

    const JsonPath* parent_ = nullptr;
    std::string_view name_;
    std::size_t index_ = 0;
    bool is_index_ = false;
};

// "a string", "an object", "null"... for "expected X, got Y" messages.
const char* describe_json_type(const JsonValue& value);

// Compact JSON; invalid UTF-8 is replaced (nlohmann's default would throw, i.e. abort).
std::string dump_json(const Json& value);

// Typed access: nothing when the value has another type.
std::optional<std::string_view> as_string(const JsonValue& value);
std::optional<double> as_number(const JsonValue& value);
std::optional<long long> as_integer(const JsonValue& value);   // integral numbers, also 3.0
std::optional<bool> as_bool(const JsonValue& value);
const JsonValue* find_field(const JsonValue& object, std::string_view name);

} // namespace imquiz

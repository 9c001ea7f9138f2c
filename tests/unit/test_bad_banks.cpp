// The bad-bank corpus (tests/bad-banks/): every case through the engine, compared line by line
// with the diagnostics `quizc validate` prints for it (cases/<name>.expected). The same files go
// through quizc itself, native and wasm, in tests/bad-banks/run-corpus.mjs. Then the regressions
// for the bugs the corpus found, each named after its bug.
#include "engine_test_support.h"

#include "engine/bank_loader.h"
#include "engine/image_file.h"
#include "engine/json/reader.h"
#include "engine/unicode.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace imquiz;
using namespace std::string_literals;
using Strings = std::vector<std::string>;

namespace {

const std::string corpus_dir = std::string(IMQUIZ_SOURCE_DIR) + "/tests/bad-banks";
const std::string cases_dir = corpus_dir + "/cases";

std::optional<std::string> read_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file)
        return std::nullopt;
    std::ostringstream buffer;
    buffer << file.rdbuf();
    return buffer.str();
}

Strings lines_of(const std::string& text) {
    Strings lines;
    std::istringstream stream(text);
    for (std::string line; std::getline(stream, line);)
        lines.push_back(line);
    return lines;
}

// The bytes of a generated case, built as tests/bad-banks/corpus.mjs builds them.
std::string build_generated(const nlohmann::json& parts) {
    std::string text;
    for (const auto& part : parts) {
        if (part.contains("text")) {
            text += part["text"].get<std::string>();
            continue;
        }
        const std::string repeat = part["repeat"].get<std::string>();
        const std::string separator = part.value("separator", "");
        const long long count = part["count"].get<long long>();
        const std::size_t placeholder = repeat.find("{i}");
        for (long long i = 0; i < count; ++i) {
            if (i > 0)
                text += separator;
            if (placeholder == std::string::npos) {
                text += repeat;
            } else {
                std::string item = repeat;
                for (std::size_t at = item.find("{i}"); at != std::string::npos; at = item.find("{i}"))
                    item.replace(at, 3, std::to_string(i));
                text += item;
            }
        }
    }
    return text;
}

// What `quizc validate <file>` prints for `text`: the engine's diagnostics, and for a catalog the
// banks it lists (read next to it) with quizc's own two checks, mirrored from src/tools/quizc.cpp
// (run-corpus.mjs checks that quizc prints the very same lines).
Strings validate_like_quizc(const std::string& file, const std::string& text,
                            const std::string& folder) {
    Strings lines;
    const auto report = [&](const std::vector<Diagnostic>& diagnostics) {
        for (const Diagnostic& diagnostic : diagnostics)
            lines.push_back(escape_for_terminal(format_diagnostic_with_severity(diagnostic)));
    };
    // A Markdown bank's images, read from the disk beside it as quizc reads them.
    const auto report_bank = [&](const BankLoadResult& bank, const std::string& bank_file) {
        report(bank.diagnostics);
        if (!bank.bank) return;
        report(image_file_problems(*bank.bank, bank_file, [&](const std::string& path) {
            ImageFileRead found;
            const auto bytes = read_file(folder + "/" + path);
            found.exists = bytes.has_value();
            if (bytes) found.size = bytes->size(), found.bytes = *bytes;
            return found;
        }));
    };
    if (detect_document_kind(text) != DocumentKind::Catalog) {
        report_bank(load_bank(text, file), file);
        return lines;
    }
    const CatalogLoadResult catalog = load_catalog(text, file);
    report(catalog.diagnostics);
    if (!catalog.catalog)
        return lines;
    std::set<std::string> checked = {file};
    for (std::size_t i = 0; i < catalog.catalog->banks.size(); ++i) {
        const CatalogEntry& entry = catalog.catalog->banks[i];
        const std::string entry_path = "banks[" + std::to_string(i) + "]";
        const auto bank_text = read_file(folder + "/" + entry.file);
        if (!bank_text) {
            lines.push_back(file + ":" + entry_path + ".file: error: cannot read \"" + entry.file +
                            "\"");
            continue;
        }
        const BankLoadResult bank = load_bank(*bank_text, entry.file);
        if (bank.bank && bank.bank->id != entry.id)
            lines.push_back(file + ":" + entry_path + ".id: error: the catalog says \"" + entry.id +
                            "\" but " + entry.file + " has id \"" + bank.bank->id + "\"");
        if (checked.insert(entry.file).second)
            report_bank(bank, entry.file);
    }
    return lines;
}

nlohmann::json manifest() {
    const auto text = read_file(corpus_dir + "/manifest.json");
    REQUIRE(text);
    return nlohmann::json::parse(*text)["cases"];
}

void check_case(const nlohmann::json& entry, const std::string& text) {
    const std::string name = entry["name"].get<std::string>();
    const auto expected = read_file(cases_dir + "/" + name + ".expected");
    INFO("case " << name << " (" << entry["category"].get<std::string>() << ": "
                 << entry["what"].get<std::string>() << ")");
    REQUIRE(expected);
    CHECK(validate_like_quizc(name + ".json", text, cases_dir) == lines_of(*expected));
}

} // namespace

TEST_CASE("bad-bank corpus: the manifest lists every case, and every case has its expected output",
          "[bad-banks]") {
    std::set<std::string> listed;
    std::set<std::string> categories;
    for (const auto& entry : manifest()) {
        const std::string name = entry["name"].get<std::string>();
        CHECK(listed.insert(name).second);   // no name twice
        categories.insert(entry["category"].get<std::string>());
        INFO(name);
        CHECK(read_file(cases_dir + "/" + name + ".expected"));
        CHECK(entry.contains("parts") != read_file(cases_dir + "/" + name + ".json").has_value());
    }
    CHECK(listed.size() >= 40);
    CHECK(categories.size() >= 8);
}

TEST_CASE("bad-bank corpus: committed cases give exactly the expected diagnostics", "[bad-banks]") {
    int checked = 0;
    for (const auto& entry : manifest()) {
        if (entry.contains("parts"))
            continue;
        const auto text = read_file(cases_dir + "/" + entry["name"].get<std::string>() + ".json");
        REQUIRE(text);
        check_case(entry, *text);
        ++checked;
    }
    CHECK(checked >= 40);
}

TEST_CASE("bad-bank corpus: generated cases (a million levels, 50 MB, millions of values) give "
          "exactly the expected diagnostics",
          "[bad-banks]") {
    int checked = 0;
    for (const auto& entry : manifest()) {
        if (!entry.contains("parts"))
            continue;
        check_case(entry, build_generated(entry["parts"]));
        ++checked;
    }
    CHECK(checked >= 10);
}

namespace {

double seconds_to_load(const std::string& text) {
    const auto start = std::chrono::steady_clock::now();
    (void)load_bank(text, "b.json");
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string object_with_fields(int count, const char* key_pattern) {
    std::string text = "{";
    for (int i = 0; i < count; ++i) {
        std::string key = key_pattern;
        key.replace(key.find("%d"), 2, std::to_string(i));
        text += (i ? ",\"" : "\"") + key + "\":1";
    }
    return text + "}";
}

} // namespace

TEST_CASE("regression: an object with 200,000 fields took minutes (ordered_json inserts were a "
          "linear search each)",
          "[bad-banks][regression]") {
    const std::string text = object_with_fields(200000, "k%d");
    // It was 380 s natively (and hours in wasm); now well under a second. 10 s only fails on
    // quadratic time, not on a slow machine.
    CHECK(seconds_to_load(text) < 10.0);
    const JsonReadResult read = read_json(text, "b.json", LoadLimits{});
    REQUIRE(read.document);
    CHECK(read.document->root().size() == 200000);
    // Field order is kept, and a repeat is still caught in a big object.
    CHECK(read.document->root().children().begin()->key() == "k0");
    std::string repeated = object_with_fields(100, "k%d");
    repeated.insert(repeated.size() - 1, ",\"k0\":2");
    const JsonReadResult big = read_json(repeated, "b.json", LoadLimits{});
    CHECK(testing::formatted(big.diagnostics) == Strings{"b.json: error: duplicate field \"k0\""});
    REQUIRE(big.document);
    CHECK(big.document->root().size() == 100);
    CHECK(as_integer(*find_field(big.document->root(), "k0")) == 1);
}

TEST_CASE("regression: two million repeated keys ran the wasm module out of memory (every "
          "duplicate kept a diagnostic and a copy of its value)",
          "[bad-banks][regression]") {
    std::string text = "{\"a\":{\"b\":[1,2]}";
    for (int i = 0; i < 1900000; ++i)   // within LoadLimits::max_values
        text += ",\"a\":1";
    text += ",\"a\":{\"c\":{\"a\":1,\"a\":2}}}";
    const LoadLimits limits;
    const JsonReadResult read = read_json(text, "b.json", limits);
    // The reader keeps no more problems than the loader reports (it kept all 1,900,001).
    CHECK(read.diagnostics.size() == limits.max_diagnostics);
    REQUIRE(read.document);
    CHECK(read.document->root().size() == 1);
    CHECK(dump_json(to_json(read.document->root())) == R"({"a":{"b":[1,2]}})");   // the first one wins

    SECTION("a repeat inside a repeated value is still reported") {
        const JsonReadResult small =
            read_json(R"({"a":1,"a":{"x":1,"x":2}})", "b.json", limits);
        CHECK(testing::formatted(small.diagnostics) ==
              Strings{"b.json: error: duplicate field \"a\"",
                      "b.json:a: error: duplicate field \"x\""});
        REQUIRE(small.document);
        CHECK(dump_json(to_json(small.document->root())) == R"({"a":1})");
    }
}

TEST_CASE("regression: 100,000 languages took a minute (each checked against all the others)",
          "[bad-banks][regression]") {
    std::string languages = "[\"en\"";
    for (int i = 0; i < 100000; ++i)
        languages += ",\"l" + std::to_string(i) + "\"";
    languages += "]";
    std::string text = testing::bank_json(testing::five_questions);
    text.replace(text.find("[\"en\", \"ru\"]"), 12, languages);
    CHECK(seconds_to_load(text) < 10.0);
    CHECK(testing::bank_problems(text) ==
          Strings{"b.json:languages: error: too many languages: 100001 (the limit is 100)"});

    SECTION("at the limit, translations are still checked against the languages") {
        LoadLimits limits;
        limits.max_languages = 2;
        CHECK(testing::bank_problems(testing::bank_json(testing::five_questions), limits).empty());
        limits.max_languages = 1;
        CHECK(testing::bank_problems(testing::bank_json(testing::five_questions), limits) ==
              Strings{"b.json:languages: error: too many languages: 2 (the limit is 1)"});
    }
}

TEST_CASE("regression: integers from 2^63 on were read as negative numbers", "[bad-banks][regression]") {
    // They were read through nlohmann's get_ptr<number_integer_t*>, which also answers for an
    // unsigned value.
    const JsonReadResult read =
        read_json(R"([10000000000000000000, 9223372036854775808, 18446744073709551615, 42, -3])",
                  "b.json", LoadLimits{});
    REQUIRE(read.document);
    const JsonValue& numbers = read.document->root();
    CHECK(as_number(numbers[0]) == 1e19);
    CHECK(as_number(numbers[1]) == 9223372036854775808.0);
    CHECK(as_number(numbers[2]) == 18446744073709551615.0);
    CHECK_FALSE(as_integer(numbers[1]));   // beyond 2^53: not a safe whole number
    CHECK(as_integer(numbers[3]) == 42);
    CHECK(as_integer(numbers[4]) == -3);

    SECTION("a numeric answer keeps its value") {
        const std::string bank = testing::bank_json(
            R"([{"id": "big", "type": "numeric", "prompt": "How big?", "explanation": "Very.",
                 "answer": {"value": 10000000000000000000}}])");
        const BankLoadResult loaded = load_bank(bank, "b.json");
        REQUIRE(loaded.bank);
        CHECK(loaded.bank->questions[0].numeric_answer.value == 1e19);
    }
    SECTION("a version of 2^64 - 1 is out of range, not version -1") {
        std::string bank = testing::bank_json(testing::five_questions);
        bank.replace(bank.find("\"version\": 1"), 12, "\"version\": 18446744073709551615");
        CHECK(testing::bank_problems(bank) ==
              Strings{"b.json:version: error: number out of range: 1.84467440737096e+19 (the limit "
                      "is ±9007199254740992)"});
    }
}

TEST_CASE("regression: a bank followed by a NUL byte and garbage loaded (the lexer took NUL for "
          "the end of the input)",
          "[bad-banks][regression]") {
    const std::string bank = testing::bank_json(testing::five_questions);
    const std::string line = std::to_string(std::count(bank.begin(), bank.end(), '\n') + 1);
    const std::string column = std::to_string(bank.size() - bank.rfind('\n'));   // after the "}"
    CHECK(testing::bank_problems(bank + "\0<script>"s) ==
          Strings{"b.json:" + line + ":" + column +
                  ": error: unexpected NUL byte: the file is not UTF-8 text (UTF-16? binary?)"});
    CHECK_FALSE(load_bank(std::string("{\0}", 3), "b.json").bank);
    CHECK(testing::bank_problems(bank).empty());
    // Inside a string: the fast reader gives up there, and the look for a NUL (made only then)
    // reports it where it is.
    const std::size_t at = bank.find("Capital of France?");
    const std::string inside = bank.substr(0, at) + '\0' + bank.substr(at);
    CHECK(testing::bank_problems(inside) ==
          Strings{"b.json:" + std::to_string(std::count(bank.begin(), bank.begin() + at, '\n') + 1) +
                  ":" + std::to_string(at - bank.rfind('\n', at)) +
                  ": error: unexpected NUL byte: the file is not UTF-8 text (UTF-16? binary?)"});
}

TEST_CASE("regression: UTF-16 and UTF-32 files were reported as \"invalid literal\"",
          "[bad-banks][regression]") {
    CHECK(testing::bank_problems("\xFF\xFE{\0}\0"s) ==
          Strings{"b.json: error: file is UTF-16 (little-endian): save it as UTF-8"});
    CHECK(testing::bank_problems("\xFE\xFF\0{\0}"s) ==
          Strings{"b.json: error: file is UTF-16 (big-endian): save it as UTF-8"});
    CHECK(testing::bank_problems("\xFF\xFE\0\0{\0\0\0"s) ==
          Strings{"b.json: error: file is UTF-32 (little-endian): save it as UTF-8"});
    CHECK(testing::bank_problems("\0\0\xFE\xFF\0\0\0{"s) ==
          Strings{"b.json: error: file is UTF-32 (big-endian): save it as UTF-8"});
    CHECK(testing::bank_problems("{\0\"\0"s) ==
          Strings{"b.json:1:2: error: unexpected NUL byte: the file is not UTF-8 text (UTF-16? "
                  "binary?)"});
    // A UTF-8 byte order mark stays accepted.
    CHECK(testing::bank_problems("\xEF\xBB\xBF" + testing::bank_json(testing::five_questions)).empty());
}

TEST_CASE("regression: 16 MiB of tiny values took 11 s and 460 MB in wasm (no limit on the "
          "number of values)",
          "[bad-banks][regression]") {
    LoadLimits limits;
    limits.max_values = 10;
    CHECK(testing::bank_problems("[0,1,2,3,4,5,6,7,8,9]", limits) ==
          Strings{"b.json:1:21: error: too many values: the limit is 10 numbers, strings, arrays "
                  "and objects"});
    CHECK(testing::bank_problems("[0,1,2,3,4,5,6,7,8]", limits) ==
          Strings{"b.json: error: expected an object, got an array"});
    // The default limit leaves room for a bank at the question limit with every text in three
    // languages (about 50 values per question in the shipped banks).
    CHECK(LoadLimits{}.max_values >= LoadLimits{}.max_questions * 60);

    SECTION("detect_document_kind obeys the same limits and stops early") {
        CHECK(detect_document_kind(R"({"version": 1, "format": "imquiz-catalog", "banks": [)") ==
              DocumentKind::Catalog);
        CHECK(detect_document_kind(R"([{"format": "imquiz-catalog"}])") == DocumentKind::Unknown);
        CHECK(detect_document_kind(R"({"notes": [1,2,3,4,5,6,7,8,9,10], "format": "imquiz-bank"})",
                                   limits) == DocumentKind::Unknown);
        CHECK(detect_document_kind(R"({"format": 1, "format": "imquiz-bank"})") ==
              DocumentKind::Unknown);   // the first "format" counts, as when loading
    }
}

TEST_CASE("regression: a whole number beyond 2^53 was reported as \"expected a whole number\"",
          "[bad-banks][regression]") {
    CHECK(testing::bank_problems(testing::bank_json(testing::five_questions,
                                                    R"({"passPercent": 1e29})")) ==
          Strings{"b.json:settings.passPercent: error: number out of range: 1e+29 (the limit is "
                  "±9007199254740992)"});
    CHECK(testing::bank_problems(testing::bank_json(testing::five_questions,
                                                    R"({"passPercent": 62.5})")) ==
          Strings{"b.json:settings.passPercent: error: expected a whole number, got 62.5"});
}

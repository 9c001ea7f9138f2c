// The JSON writer (progress records, the page's state document, xAPI statements) writes what
// nlohmann's dump(-1) writes for the same values, and what it writes reads back the same.
#include "engine/json/reader.h"
#include "engine/json/writer.h"
#include "engine/limits.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>

using namespace imquiz;

namespace {

std::string nlohmann_dump(const Json& value) { return value.dump(-1, ' ', false, Json::error_handler_t::replace); }

std::string written_string(std::string_view text) {
    JsonWriter out;
    out.string(text);
    return out.take();
}

std::string written_number(double value) {
    JsonWriter out;
    out.number(value);
    return out.take();
}

}  // namespace

TEST_CASE("strings are escaped as nlohmann escapes them", "[json][writer]") {
    std::string every_control;
    for (int c = 0; c < 0x20; ++c) every_control += static_cast<char>(c);
    for (const std::string& text : {std::string(), std::string("plain"), std::string("quote \" and \\ backslash"),
                                   every_control, std::string("\x7f del"), std::string("Кириллица, 中文, 😀"),
                                   std::string("/slash </script>"), std::string("runs \"between\" é\tescapes\\ end")})
        CHECK(written_string(text) == nlohmann_dump(Json(text)));
}

TEST_CASE("ill-formed UTF-8 becomes U+FFFD, and the rest is kept", "[json][writer]") {
    CHECK(written_string("a\xff" "b") == "\"a\xEF\xBF\xBD" "b\"");
    CHECK(written_string("\xC3") == "\"\xEF\xBF\xBD\"");                // truncated sequence
    CHECK(written_string("\xED\xA0\x80") == "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");   // a surrogate
    CHECK(written_string("\xC3\xA9") == "\"\xC3\xA9\"");
}

TEST_CASE("numbers: the shortest text that reads back the same double", "[json][writer]") {
    CHECK(written_number(1) == "1.0");
    CHECK(written_number(0) == "0.0");
    CHECK(written_number(0.5) == "0.5");
    CHECK(written_number(0.1) == "0.1");
    CHECK(written_number(100.0 * 2 / 3) == nlohmann_dump(Json(100.0 * 2 / 3)));
    CHECK(written_number(std::nan("")) == "null");
    CHECK(written_number(std::numeric_limits<double>::infinity()) == "null");
    std::mt19937_64 random(20261201);
    std::uniform_real_distribution<double> percent(0, 100);
    for (int i = 0; i < 2000; ++i) {
        const double value = i % 2 ? percent(random) : static_cast<double>(random() % 20001) / 200;
        const std::string text = written_number(value);
        INFO(text);
        CHECK(std::strtod(text.c_str(), nullptr) == value);
        CHECK(text.size() <= nlohmann_dump(Json(value)).size());
    }
}

TEST_CASE("a value read from a document is written back as it was", "[json][writer]") {
    const std::string text =
        R"({"a":[1,-2,18446744073709551615,0.25,true,false,null],"b":{"key \"quoted\"":"v","":{}},"c":[]})";
    const JsonReadResult read = read_json(text, "", LoadLimits{});
    REQUIRE(read.document);
    JsonWriter out;
    out.value(read.document->root());
    CHECK(out.take() == text);
}

TEST_CASE("keys, arrays and objects are separated as nlohmann separates them", "[json][writer]") {
    JsonWriter out;
    out.begin_object();
    out.key("list").begin_array().integer(1).string("two").begin_object().end_object().begin_array().end_array().end_array();
    out.key(std::string_view("data \"key\"")).boolean(true);
    out.key("none").null();
    out.end_object();
    Json expected = Json::object();
    expected["list"] = Json::array({1, "two", Json::object(), Json::array()});
    expected["data \"key\""] = true;
    expected["none"] = nullptr;
    CHECK(out.take() == nlohmann_dump(expected));
}

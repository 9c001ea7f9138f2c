// quizzes/README.md and quizzes/schema.json are checked against the loader, so the docs for
// course authors cannot drift from what the app accepts.
#include "engine/bank_loader.h"
#include "engine/diagnostics.h"

#include "readme_examples.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <sstream>

using imquiz::testing::readme_example;

namespace {

std::string read_source_file(const std::string& relative_path) {
    std::ifstream file(std::string(IMQUIZ_SOURCE_DIR) + "/" + relative_path, std::ios::binary);
    std::ostringstream contents;
    contents << file.rdbuf();
    return contents.str();
}


std::vector<std::string> formatted(const std::vector<imquiz::Diagnostic>& diagnostics) {
    std::vector<std::string> lines;
    for (const auto& diagnostic : diagnostics)
        lines.push_back(imquiz::format_diagnostic_with_severity(diagnostic));
    return lines;
}

} // namespace

TEST_CASE("the README's examples load without a single diagnostic", "[readme]") {
    const std::string readme = read_source_file("quizzes/README.md");
    REQUIRE_FALSE(readme.empty());

    SECTION("the full bank example") {
        const std::string example = readme_example(readme, "full bank");
        REQUIRE_FALSE(example.empty());
        const imquiz::BankLoadResult result = imquiz::load_bank(example, "README.md");
        CHECK(formatted(result.diagnostics).empty());
        REQUIRE(result.bank);
        SECTION("and shows every question type") {
            std::set<imquiz::QuestionType> types;
            for (const imquiz::Question& question : result.bank->questions)
                types.insert(question.type);
            CHECK(types.size() == 8);
        }
    }
    SECTION("the Markdown bank example: every text Markdown, parsed, with code, a list, a table and math") {
        const std::string example = readme_example(readme, "markdown bank");
        REQUIRE_FALSE(example.empty());
        const imquiz::BankLoadResult result = imquiz::load_bank(example, "README.md");
        CHECK(formatted(result.diagnostics).empty());
        REQUIRE(result.bank);
        CHECK(result.bank->text_format == imquiz::TextFormat::Markdown);
        CHECK(result.bank->questions.size() == 3);
    }

    SECTION("the catalog example") {
        const std::string example = readme_example(readme, "catalog");
        REQUIRE_FALSE(example.empty());
        const imquiz::CatalogLoadResult result = imquiz::load_catalog(example, "README.md");
        CHECK(formatted(result.diagnostics).empty());
        REQUIRE(result.catalog);
        CHECK(result.catalog->banks.size() == 2);
    }
    SECTION("the section the content work fills in is there") {
        CHECK(readme.find("\n## Launch content\n") != std::string::npos);
    }
}

TEST_CASE("schema.json agrees with the loader", "[readme][schema]") {
    using nlohmann::json;
    const json schema = json::parse(read_source_file("quizzes/schema.json"), nullptr, false);
    REQUIRE(schema.is_object());
    CHECK(schema.value("$schema", "") == "https://json-schema.org/draft/2020-12/schema");

    SECTION("the same question types") {
        const json& types = schema["$defs"]["question"]["properties"]["type"]["enum"];
        REQUIRE(types.is_array());
        std::set<std::string> schema_types;
        for (const json& type : types)
            schema_types.insert(type.is_string() ? type.get<std::string>() : "");
        std::set<std::string> engine_types;
        for (auto type : {imquiz::QuestionType::SingleChoice, imquiz::QuestionType::MultipleChoice,
                          imquiz::QuestionType::TrueFalse, imquiz::QuestionType::Numeric,
                          imquiz::QuestionType::ShortText, imquiz::QuestionType::Matching,
                          imquiz::QuestionType::Ordering, imquiz::QuestionType::Cloze})
            engine_types.insert(std::string(imquiz::to_string(type)));
        CHECK(schema_types == engine_types);
    }
    SECTION("every setting of the schema, at its default, is accepted by the loader") {
        const json& settings = schema["$defs"]["settings"]["properties"];
        REQUIRE(settings.is_object());
        json all_defaults = json::object();
        std::set<std::string> without_default;
        for (auto it = settings.begin(); it != settings.end(); ++it) {
            if (it.value().contains("default")) all_defaults[it.key()] = it.value()["default"];
            else without_default.insert(it.key());
        }
        // maxAttempts has none to give: an exam's is 1, and practice has no such setting.
        CHECK(without_default == std::set<std::string>{"maxAttempts"});
        json bank = json::parse(readme_example(read_source_file("quizzes/README.md"), "full bank"),
                                nullptr, false);
        REQUIRE(bank.is_object());
        bank["settings"] = all_defaults;
        const auto result = imquiz::load_bank(bank.dump(), "defaults.json");
        CHECK(formatted(result.diagnostics).empty());
        REQUIRE(result.bank);
        CHECK(result.bank->settings.pass_percent == 70);
    }
    SECTION("every top-level field of the schema is known to the loader") {
        const json& properties = schema["properties"];
        REQUIRE(properties.is_object());
        for (auto it = properties.begin(); it != properties.end(); ++it) {
            INFO(it.key());
            std::string probe = R"({")" + it.key() + R"(": null})";
            for (const std::string& line :
                 formatted(imquiz::load_bank(probe, "probe.json").diagnostics))
                CHECK(line.find("unknown field") == std::string::npos);
        }
    }
}

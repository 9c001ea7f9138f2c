// The include rules, checked on the sources: program -> ui -> app -> engine / platform (README);
// inside the engine, the low layers include nothing of what is built on them (src/engine/README.md).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path engine_dir = fs::path(IMQUIZ_SOURCE_DIR) / "src" / "engine";

// Every `#include "..."` and `#include <...>` of a folder of src/, as {file relative to src/,
// included path}.
std::vector<std::pair<std::string, std::string>> includes_of(const fs::path& dir, bool system = false) {
    std::vector<std::pair<std::string, std::string>> result;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
        const std::string extension = entry.path().extension().string();
        if (extension != ".h" && extension != ".cpp" && extension != ".inc")
            continue;
        std::ifstream in(entry.path());
        const std::string file = fs::relative(entry.path(), engine_dir.parent_path()).string();
        for (std::string line; std::getline(in, line);) {
            const std::string prefix = system ? "#include <" : "#include \"";
            if (line.compare(0, prefix.size(), prefix) != 0)
                continue;
            result.emplace_back(file, line.substr(prefix.size(), line.find(system ? '>' : '"', prefix.size()) -
                                                                     prefix.size()));
        }
    }
    return result;
}

std::vector<std::pair<std::string, std::string>> engine_includes() { return includes_of(engine_dir); }

bool starts_with(const std::string& text, const std::string& prefix) {
    return text.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

TEST_CASE("Engine layers: includes run one way", "[layers]") {
    const auto includes = engine_includes();
    REQUIRE(includes.size() > 50);   // the walk found the engine
    SECTION("nothing in engine/ includes another layer") {
        for (const auto& [file, included] : includes) {
            INFO(file << " includes " << included);
            CHECK(starts_with(included, "engine/"));
        }
    }
    SECTION("the codec, limits, diagnostics, ids and json/ include only each other") {
        const std::set<std::string> low = {"engine/utf8.h", "engine/limits.h",
                                           "engine/diagnostics.h", "engine/ids.h",
                                           "engine/unicode.h", "engine/unicode_tables.inc"};
        for (const auto& [file, included] : includes) {
            const std::string name = file.substr(0, file.rfind('.')) + ".h";
            const bool file_is_low = low.count(name) != 0 || starts_with(file, "engine/json/");
            if (!file_is_low)
                continue;
            INFO(file << " includes " << included);
            CHECK((low.count(included) != 0 || starts_with(included, "engine/json/")));
        }
    }
}

TEST_CASE("Layers: program -> ui -> app -> engine / platform", "[layers]") {
    const fs::path src = engine_dir.parent_path();
    SECTION("app/ includes no ImGui, nothing of the browser, nothing of ui/ or program/") {
        const auto quoted = includes_of(src / "app");
        REQUIRE(quoted.size() > 20);
        for (const auto& [file, included] : quoted) {
            INFO(file << " includes " << included);
            CHECK((starts_with(included, "app/") || starts_with(included, "engine/") ||
                   included == "platform/platform.h"));
        }
        for (const auto& [file, included] : includes_of(src / "app", true)) {
            INFO(file << " includes <" << included << ">");
            CHECK_FALSE(starts_with(included, "imgui"));
            CHECK_FALSE(starts_with(included, "emscripten"));
            CHECK_FALSE(starts_with(included, "GLES"));
        }
    }
    SECTION("platform/ includes nothing of engine/, app/ or ui/") {
        for (const auto& [file, included] : includes_of(src / "platform")) {
            INFO(file << " includes " << included);
            CHECK(starts_with(included, "platform/"));
        }
    }
    SECTION("ui/ includes nothing of program/") {
        for (const auto& [file, included] : includes_of(src / "ui")) {
            INFO(file << " includes " << included);
            CHECK_FALSE(starts_with(included, "program/"));
        }
    }
}

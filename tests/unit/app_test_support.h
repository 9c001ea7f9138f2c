// Shared by the native tests of app/: the repository's files, and a fresh in-memory world that
// serves the shipped catalog and banks as the site would.
#pragma once

#include "platform/memory/platform_memory.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace imquiz::testing {

// A file of the repository, by its path from the top ("quizzes/index.json").
inline std::string source(const std::string& relative) {
    std::ifstream in(std::string(IMQUIZ_SOURCE_DIR) + "/" + relative, std::ios::binary);
    REQUIRE(in);
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

// Resets the in-memory platform: the URL's parameters, a font, and (when `shipped`) the shipped
// catalog and both launch banks.
inline void fresh_world(std::map<std::string, std::string> url, bool shipped = true) {
    namespace memory = imquiz::platform::memory;
    memory::reset();
    auto& world = memory::world();
    // bank=: the page passes the link on only where the deployment allows it (web/boot.js).
    if (url.count("bank")) world.development_bank_url = url["bank"];
    world.url_parameters = std::move(url);
    world.files["fonts/imquiz-sans.ttf"] = "font bytes";
    if (shipped)
        for (const char* file : {"quizzes/index.json", "quizzes/data-parallelism.json", "quizzes/model-pipeline-parallelism.json"})
            world.files[file] = source(file);
}

}  // namespace imquiz::testing

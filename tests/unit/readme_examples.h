// The examples of quizzes/README.md, which the tests load so that what authors read is what works.
// Standard library only: any test file may include it.
#pragma once

#include <string>

namespace imquiz::testing {

// The first ```json block after `<!-- readme-example: NAME -->`; empty when there is none.
inline std::string readme_example(const std::string& readme, const std::string& name) {
    const std::size_t marker = readme.find("<!-- readme-example: " + name + " -->");
    if (marker == std::string::npos) return {};
    const std::string fence = "```json\n";
    const std::size_t start = readme.find(fence, marker);
    if (start == std::string::npos) return {};
    // The closing fence on a line of its own: a Markdown bank's strings hold ``` of their own.
    const std::size_t end = readme.find("\n```\n", start + fence.size());
    if (end == std::string::npos) return {};
    return readme.substr(start + fence.size(), end + 1 - start - fence.size());
}

}  // namespace imquiz::testing

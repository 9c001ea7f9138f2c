// engine/markdown.h's markdown_use: one reading of a bank's Markdown text for its loader.
#include "engine/markdown.h"

namespace imquiz {

MarkdownUse markdown_use(std::string_view markdown) {
    // Only links, images and formulas make problems, images or formulas, and none can be written
    // without one of these characters: "[" for links and images (inline or by reference), "<"
    // for autolinks, "$" for formulas (md4c_reader.cpp's flags turn no other link syntax on).
    // Most texts (choices, feedback) have none, and are not read at all: on the web each reading
    // is a call into md4c's module, in a Markdown bank's first frame (docs/benchmark.md).
    if (markdown.find_first_of("[<$") == std::string_view::npos) return {};
    ParsedMarkdown parsed = read_markdown(markdown);
    MarkdownUse use;
    use.problems = std::move(parsed.problems);
    for (const Inline* run : math_runs(parsed.text)) use.formulas.emplace_back(run->text, run->kind == Inline::Kind::DisplayMath);
    for (std::string& source : image_sources(parsed.text))
        if (image_source_problem(source).empty()) use.images.push_back(std::move(source));
    return use;
}

}  // namespace imquiz

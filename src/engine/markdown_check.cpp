// engine/markdown.h's markdown_use: one reading of a bank's Markdown text for its loader.
#include "engine/markdown.h"

namespace imquiz {

MarkdownUse markdown_use(std::string_view markdown) {
    ParsedMarkdown parsed = read_markdown(markdown);
    MarkdownUse use;
    use.problems = std::move(parsed.problems);
    for (const Inline* run : math_runs(parsed.text)) use.formulas.emplace_back(run->text, run->kind == Inline::Kind::DisplayMath);
    for (std::string& source : image_sources(parsed.text))
        if (image_source_problem(source).empty()) use.images.push_back(std::move(source));
    return use;
}

}  // namespace imquiz

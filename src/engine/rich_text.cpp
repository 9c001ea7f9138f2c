#include "engine/rich_text.h"

namespace imquiz {

RichText plain_rich_text(std::string text) {
    RichText rich;
    rich.blocks.emplace_back();
    rich.blocks.back().inlines.push_back({Inline::Kind::Text, Inline::Plain, std::move(text), {}});
    return rich;
}

namespace {
void append_runs(std::string& out, const std::vector<Inline>& runs) {
    for (const Inline& run : runs) out += run.kind == Inline::Kind::LineBreak ? "\n" : run.text;
}
}  // namespace

std::string plain_text(const RichText& text) {
    std::string out;
    for (const Block& block : text.blocks) {
        if (!out.empty()) out += block.depth > 0 && !block.marker.empty() ? "\n" : "\n\n";
        if (!block.marker.empty()) out += block.marker + " ";
        if (block.kind == Block::Kind::Code) out += block.code;
        append_runs(out, block.inlines);
        for (const auto& row : block.rows) {
            for (std::size_t c = 0; c < row.size(); ++c) {
                if (c > 0) out += " | ";
                append_runs(out, row[c]);
            }
            out += "\n";
        }
    }
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
}

std::vector<std::string> image_sources(const RichText& text) {
    std::vector<std::string> sources;
    auto collect = [&](const std::vector<Inline>& runs) {
        for (const Inline& run : runs)
            if (run.kind == Inline::Kind::Image) sources.push_back(run.link);
    };
    for (const Block& block : text.blocks) {
        collect(block.inlines);
        for (const auto& row : block.rows)
            for (const auto& cell : row) collect(cell);
    }
    return sources;
}

bool is_plain(const RichText& text) {
    if (text.blocks.size() != 1) return text.blocks.empty();
    const Block& block = text.blocks.front();
    if (block.kind != Block::Kind::Paragraph || block.depth > 0 || block.quote) return false;
    for (const Inline& run : block.inlines)
        if (run.kind != Inline::Kind::Text || run.style != Inline::Plain || !run.link.empty()) return false;
    return true;
}

std::vector<const Inline*> math_runs(const RichText& text) {
    std::vector<const Inline*> found;
    auto add = [&found](const std::vector<Inline>& runs) {
        for (const Inline& run : runs)
            if (run.kind == Inline::Kind::Math || run.kind == Inline::Kind::DisplayMath) found.push_back(&run);
    };
    for (const Block& block : text.blocks) {
        add(block.inlines);
        for (const auto& row : block.rows)
            for (const auto& cell : row) add(cell);
    }
    return found;
}

}  // namespace imquiz
